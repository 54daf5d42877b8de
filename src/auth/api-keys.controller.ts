import type { ChangeOrigin } from '../database/history/change-origin.js';
import { Origin } from '../changes/change-origin.decorator.js';
import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  HttpStatus,
  Param,
  Post,
  Query,
} from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { CurrentUser } from '../common/decorators/current-user.decorator.js';
import {
  ApiAuthenticated,
  ApiErrorResponses,
  ApiJsonBodyErrors,
} from '../common/openapi/api-error-responses.decorator.js';
import { NoQueryPipe } from '../common/pipes/no-query.pipe.js';
import type { Principal } from '../common/principal.js';
import { ApiKeysService } from './api-keys.service.js';
import { ApiKeyResponse, toApiKeyResponse } from './dto/api-key-response.dto.js';
import { CreateApiKeyDto } from './dto/create-api-key.dto.js';
import { CreatedApiKeyResponse } from './dto/created-api-key-response.dto.js';

/** Every signed-in user manages its own keys; nobody sees another user's. */
@ApiTags('api-keys')
@ApiAuthenticated()
@Controller('auth/api-keys')
export class ApiKeysController {
  constructor(private readonly apiKeys: ApiKeysService) {}

  @Post()
  @ApiOperation({
    summary: 'Create an API key for the signed-in user',
    description:
      'The key acts with the role of its user. Its secret `key` is in this answer only; only its hash is stored.',
  })
  @ApiCreatedResponse({ type: CreatedApiKeyResponse })
  @ApiJsonBodyErrors()
  async create(
    @Origin() origin: ChangeOrigin,
    @Body() dto: CreateApiKeyDto,
  ): Promise<CreatedApiKeyResponse> {
    const expiresAt = dto.expiresAt ? new Date(dto.expiresAt) : null;
    const { apiKey, key } = await this.apiKeys.create(origin, dto.name, expiresAt);
    return { ...toApiKeyResponse(apiKey), key };
  }

  @Get()
  @ApiOperation({ summary: "The signed-in user's API keys, never with their secret" })
  @ApiOkResponse({ type: [ApiKeyResponse] })
  async list(
    @CurrentUser() caller: Principal,
    @Query(NoQueryPipe) _query: undefined,
  ): Promise<ApiKeyResponse[]> {
    return (await this.apiKeys.listForUser(caller.userId)).map(toApiKeyResponse);
  }

  @Delete(':id')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({
    summary: "Revoke one of the signed-in user's API keys",
    description: 'The key stops working at once.',
  })
  @ApiParam({ name: 'id', description: 'The API key id (a UUID)' })
  @ApiNoContentResponse({ description: 'Revoked' })
  @ApiErrorResponses({
    status: 404,
    description: "No API key of the caller has this id (another user's key included)",
  })
  revoke(@Origin() origin: ChangeOrigin, @Param('id') id: string): Promise<void> {
    return this.apiKeys.revoke(origin, id);
  }
}
