import { ApiProperty } from '@nestjs/swagger';
import type { ApiKey } from '../../database/entities/api-key.entity.js';

export class ApiKeyResponse {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ example: 'nightly scan' })
  name: string;

  @ApiProperty({
    description: 'The public start of the key, to tell keys apart',
    example: 'amk_3f9c0a1b2c4d',
  })
  prefix: string;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'null: never' })
  expiresAt: string | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Written at most once a minute; null: never used',
  })
  lastUsedAt: string | null;
}

export function toApiKeyResponse(apiKey: ApiKey): ApiKeyResponse {
  return {
    id: apiKey.id,
    name: apiKey.name,
    prefix: apiKey.prefix,
    createdAt: apiKey.createdAt.toISOString(),
    expiresAt: apiKey.expiresAt?.toISOString() ?? null,
    lastUsedAt: apiKey.lastUsedAt?.toISOString() ?? null,
  };
}
