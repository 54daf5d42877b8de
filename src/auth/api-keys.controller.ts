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
import { UnrestrictedKey } from '../common/decorators/key-scope.decorator.js';
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
import { RotateApiKeyDto } from './dto/rotate-api-key.dto.js';
import {
  API_KEY_CREATE_DESCRIPTION,
  API_KEY_ROTATE_DESCRIPTION,
  RESTRICTED_KEY_REFUSED,
} from './api-key-docs.js';

/**
 * Every signed-in user manages its own keys; nobody sees another user's here (admins manage any
 * user's under /api/users/:id/api-keys). Making, rotating or revoking a key with an API key
 * needs one no narrower than its user's role, or a narrow key could make itself a wide one.
 */
@ApiTags('api-keys')
@ApiAuthenticated()
@Controller('auth/api-keys')
export class ApiKeysController {
  constructor(private readonly apiKeys: ApiKeysService) {}

  @Post()
  @UnrestrictedKey()
  @ApiOperation({
    summary: 'Create an API key for the signed-in user',
    description: API_KEY_CREATE_DESCRIPTION,
  })
  @ApiCreatedResponse({ type: CreatedApiKeyResponse })
  @ApiJsonBodyErrors()
  @ApiErrorResponses(RESTRICTED_KEY_REFUSED)
  async create(
    @Origin() origin: ChangeOrigin,
    @CurrentUser() caller: Principal,
    @Body() dto: CreateApiKeyDto,
  ): Promise<CreatedApiKeyResponse> {
    const owner = { id: caller.userId, role: caller.role };
    const { apiKey, key } = await this.apiKeys.create(origin, owner, dto);
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

  @Post(':id/rotate')
  @UnrestrictedKey()
  @ApiOperation({
    summary: "Rotate one of the signed-in user's API keys",
    description: API_KEY_ROTATE_DESCRIPTION,
  })
  @ApiParam({ name: 'id', description: 'The API key id (a UUID)' })
  @ApiCreatedResponse({ type: CreatedApiKeyResponse, description: 'The new key' })
  @ApiJsonBodyErrors()
  @ApiErrorResponses(
    RESTRICTED_KEY_REFUSED,
    {
      status: 404,
      description: "No API key of the caller has this id (another user's key included)",
    },
    { status: 409, description: 'The key has expired' },
  )
  async rotate(
    @Origin() origin: ChangeOrigin,
    @Param('id') id: string,
    @Body() dto: RotateApiKeyDto,
  ): Promise<CreatedApiKeyResponse> {
    const { apiKey, key } = await this.apiKeys.rotate(
      origin,
      origin.caller.userId,
      id,
      dto.graceSeconds,
    );
    return { ...toApiKeyResponse(apiKey), key };
  }

  @Delete(':id')
  @UnrestrictedKey()
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({
    summary: "Revoke one of the signed-in user's API keys",
    description: 'The key stops working at once.',
  })
  @ApiParam({ name: 'id', description: 'The API key id (a UUID)' })
  @ApiNoContentResponse({ description: 'Revoked' })
  @ApiErrorResponses(RESTRICTED_KEY_REFUSED, {
    status: 404,
    description: "No API key of the caller has this id (another user's key included)",
  })
  revoke(@Origin() origin: ChangeOrigin, @Param('id') id: string): Promise<void> {
    return this.apiKeys.revoke(origin, origin.caller.userId, id);
  }
}
