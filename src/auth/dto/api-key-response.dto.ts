import { ApiProperty } from '@nestjs/swagger';
import { Scope } from '../../common/scope.js';
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

  @ApiProperty({
    enum: Scope,
    enumName: 'Scope',
    isArray: true,
    description:
      "What was granted; a request needs both the key's scope and its user's current role",
    example: ['ingest'],
  })
  scopes: Scope[];

  @ApiProperty({
    type: [String],
    nullable: true,
    description: 'The feeds it may ingest as; null: any',
    example: ['nmap-dmz'],
  })
  sources: string[] | null;

  @ApiProperty({
    type: [String],
    nullable: true,
    description: 'The client address prefixes it may be used from; null: any',
    example: ['192.0.2.0/24'],
  })
  allowedCidrs: string[] | null;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'null: never. A rotated key expires at the end of its grace period.',
  })
  expiresAt: string | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Written at most once a minute; null: never used',
  })
  lastUsedAt: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The client address of that use (as TRUST_PROXY says); null: never used',
    example: '192.0.2.10',
  })
  lastUsedIp: string | null;
}

export function toApiKeyResponse(apiKey: ApiKey): ApiKeyResponse {
  return {
    id: apiKey.id,
    name: apiKey.name,
    prefix: apiKey.prefix,
    scopes: apiKey.scopes,
    sources: apiKey.sources,
    allowedCidrs: apiKey.allowedCidrs,
    createdAt: apiKey.createdAt.toISOString(),
    expiresAt: apiKey.expiresAt?.toISOString() ?? null,
    lastUsedAt: apiKey.lastUsedAt?.toISOString() ?? null,
    lastUsedIp: apiKey.lastUsedIp,
  };
}
