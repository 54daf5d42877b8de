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
import { Roles } from '../common/decorators/roles.decorator.js';
import {
  ApiAuthenticated,
  ApiErrorResponses,
  ApiJsonBodyErrors,
} from '../common/openapi/api-error-responses.decorator.js';
import { NoQueryPipe } from '../common/pipes/no-query.pipe.js';
import { Role } from '../common/role.js';
import { API_KEY_CREATE_DESCRIPTION, API_KEY_ROTATE_DESCRIPTION } from './api-key-docs.js';
import { ApiKeysService } from './api-keys.service.js';
import { ApiKeyResponse, toApiKeyResponse } from './dto/api-key-response.dto.js';
import { CreateApiKeyDto } from './dto/create-api-key.dto.js';
import { CreatedApiKeyResponse } from './dto/created-api-key-response.dto.js';
import { RotateApiKeyDto } from './dto/rotate-api-key.dto.js';
import { UsersService } from './users.service.js';

const USER_ID = ApiParam({ name: 'id', description: 'The user id (a UUID)' });
const KEY_ID = ApiParam({ name: 'keyId', description: 'The API key id (a UUID)' });
const NO_USER = { status: 404, description: 'No user has this id' } as const;
const NO_KEY = {
  status: 404,
  description: 'No user has this id, or the user has no API key of this id',
} as const;

/** Admins manage any user's keys: a service account's above all, which cannot sign in. */
@ApiTags('users')
@ApiAuthenticated()
@ApiErrorResponses({
  status: 403,
  description: "The caller is not an admin, or its API key lacks the scope 'admin'",
})
@Roles(Role.Admin)
@Controller('users/:id/api-keys')
export class UserApiKeysController {
  constructor(
    private readonly apiKeys: ApiKeysService,
    private readonly users: UsersService,
  ) {}

  @Post()
  @ApiOperation({
    summary: 'Create an API key for a user (admin)',
    description: `${API_KEY_CREATE_DESCRIPTION} Its scopes are bounded by that user's role, not the admin's.`,
  })
  @USER_ID
  @ApiCreatedResponse({ type: CreatedApiKeyResponse })
  @ApiJsonBodyErrors()
  @ApiErrorResponses(NO_USER)
  async create(
    @Origin() origin: ChangeOrigin,
    @Param('id') id: string,
    @Body() dto: CreateApiKeyDto,
  ): Promise<CreatedApiKeyResponse> {
    const owner = await this.users.getById(id);
    const { apiKey, key } = await this.apiKeys.create(origin, owner, dto);
    return { ...toApiKeyResponse(apiKey), key };
  }

  @Get()
  @ApiOperation({ summary: "A user's API keys, never with their secret (admin)" })
  @USER_ID
  @ApiOkResponse({ type: [ApiKeyResponse] })
  @ApiErrorResponses(NO_USER)
  async list(
    @Param('id') id: string,
    @Query(NoQueryPipe) _query: undefined,
  ): Promise<ApiKeyResponse[]> {
    await this.users.getById(id);
    return (await this.apiKeys.listForUser(id)).map(toApiKeyResponse);
  }

  @Post(':keyId/rotate')
  @ApiOperation({
    summary: "Rotate a user's API key (admin)",
    description: API_KEY_ROTATE_DESCRIPTION,
  })
  @USER_ID
  @KEY_ID
  @ApiCreatedResponse({ type: CreatedApiKeyResponse, description: 'The new key' })
  @ApiJsonBodyErrors()
  @ApiErrorResponses(NO_KEY, { status: 409, description: 'The key has expired' })
  async rotate(
    @Origin() origin: ChangeOrigin,
    @Param('id') id: string,
    @Param('keyId') keyId: string,
    @Body() dto: RotateApiKeyDto,
  ): Promise<CreatedApiKeyResponse> {
    const { apiKey, key } = await this.apiKeys.rotate(origin, id, keyId, dto.graceSeconds);
    return { ...toApiKeyResponse(apiKey), key };
  }

  @Delete(':keyId')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({
    summary: "Revoke a user's API key (admin)",
    description: 'The key stops working at once.',
  })
  @USER_ID
  @KEY_ID
  @ApiNoContentResponse({ description: 'Revoked' })
  @ApiErrorResponses(NO_KEY)
  revoke(
    @Origin() origin: ChangeOrigin,
    @Param('id') id: string,
    @Param('keyId') keyId: string,
  ): Promise<void> {
    return this.apiKeys.revoke(origin, id, keyId);
  }
}
