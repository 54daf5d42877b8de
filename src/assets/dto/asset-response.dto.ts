import { ApiProperty } from '@nestjs/swagger';
import { isoTimestamp, isoTimestampOrNull } from '../../database/timestamps.js';
import type { StoredAssetRow } from '../asset-rows.js';
import { ASSET_ORIGINS, type AssetOrigin } from '../../common/field-rules/inventory-values.js';
import { ServiceResponse } from './service-response.dto.js';
import { VulnerabilityResponse } from './vulnerability-response.dto.js';

export class AssetResponse {
  @ApiProperty({
    description: 'A UUID, or the id given at ingestion (1 to 200 printable characters)',
    example: '6f1c2a7e-4b0d-4c8e-9a51-2f3d7b9e0c11',
  })
  id: string;

  @ApiProperty({ example: 'core-switch' })
  name: string;

  @ApiProperty({ type: String, nullable: true, description: 'IPv4 or IPv6', example: '10.0.0.1' })
  ip: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'switch' })
  type: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'Cisco' })
  vendor: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'Catalyst 9300' })
  model: string | null;

  @ApiProperty({ type: 'integer', nullable: true, minimum: 0, maximum: 100, example: 40 })
  risk_score: number | null;

  @ApiProperty({ type: String, nullable: true, example: 'paris' })
  site: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'IOS-XE 17.9' })
  os_version: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The ingestion feed (options.source) that last wrote the asset',
    example: 'nmap-dmz',
  })
  source: string | null;

  @ApiProperty({ type: () => [VulnerabilityResponse], description: 'Possibly empty' })
  vulnerabilities: VulnerabilityResponse[];

  @ApiProperty({
    type: () => [ServiceResponse],
    description: 'Its network services, in port then protocol order; possibly empty',
  })
  services: ServiceResponse[];

  @ApiProperty({
    enum: ASSET_ORIGINS,
    enumName: 'AssetOrigin',
    description:
      'manual: created through POST /api/assets; ingest: created by an ingestion. Never changes',
    example: 'ingest',
  })
  origin: AssetOrigin;

  @ApiProperty({
    type: [String],
    description:
      'The ingestion feeds (options.source) that report the asset, in the order they first did; empty when none',
    example: ['nmap-dmz', 'nessus-weekly'],
  })
  sources: string[];

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When an ingestion with a source first named the asset; null if never',
    example: '2026-11-02T08:00:00.000Z',
  })
  firstSeenAt: string | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When an ingestion with a source last named the asset; null if never',
    example: '2026-11-24T08:00:00.000Z',
  })
  lastSeenAt: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt: string;
}

/** What is read beside an asset's row: its lists. */
export interface AssetDetails {
  vulnerabilities: VulnerabilityResponse[];
  services: ServiceResponse[];
  /** In position order. */
  sources: string[];
}

/**
 * The one mapping of a stored asset to its answer, from a row as raw SQL reads it, with its
 * lists read beside it.
 */
export function toAssetResponse(
  row: StoredAssetRow,
  { vulnerabilities, services, sources }: AssetDetails,
): AssetResponse {
  return {
    id: row.id,
    name: row.name,
    ip: row.ip,
    type: row.type,
    vendor: row.vendor,
    model: row.model,
    risk_score: row.risk_score,
    site: row.site,
    os_version: row.os_version,
    source: row.source,
    vulnerabilities,
    services,
    origin: row.origin,
    sources,
    firstSeenAt: isoTimestampOrNull(row.first_seen_at),
    lastSeenAt: isoTimestampOrNull(row.last_seen_at),
    createdAt: isoTimestamp(row.created_at),
    updatedAt: isoTimestamp(row.updated_at),
  };
}
