import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Param, Post } from '@nestjs/common';
import { CurrentUser } from '../common/decorators/current-user.decorator.js';
import type { Principal } from '../common/principal.js';
import { ApiKeysService } from './api-keys.service.js';
import { toApiKeyResponse, type ApiKeyResponse } from './dto/api-key-response.dto.js';
import { CreateApiKeyDto } from './dto/create-api-key.dto.js';
import type { CreatedApiKeyResponse } from './dto/created-api-key-response.dto.js';

/** Every signed-in user manages its own keys; nobody sees another user's. */
@Controller('auth/api-keys')
export class ApiKeysController {
  constructor(private readonly apiKeys: ApiKeysService) {}

  @Post()
  async create(
    @CurrentUser() caller: Principal,
    @Body() dto: CreateApiKeyDto,
  ): Promise<CreatedApiKeyResponse> {
    const expiresAt = dto.expiresAt ? new Date(dto.expiresAt) : null;
    const { apiKey, key } = await this.apiKeys.create(caller.userId, dto.name, expiresAt);
    return { ...toApiKeyResponse(apiKey), key };
  }

  @Get()
  async list(@CurrentUser() caller: Principal): Promise<ApiKeyResponse[]> {
    return (await this.apiKeys.listForUser(caller.userId)).map(toApiKeyResponse);
  }

  @Delete(':id')
  @HttpCode(HttpStatus.NO_CONTENT)
  revoke(@CurrentUser() caller: Principal, @Param('id') id: string): Promise<void> {
    return this.apiKeys.revoke(caller.userId, id);
  }
}
