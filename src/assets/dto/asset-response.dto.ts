import { ApiProperty, type ApiPropertyOptions } from '@nestjs/swagger';
import { fieldSchema, type FieldRule } from '../../common/field-rules/field-rule.js';
import { FieldsClass } from '../../common/field-rules/fields-class.js';
import { ASSET_FIELD_RULES, ASSET_ID_RULE } from '../../common/field-rules/inventory-fields.js';
import {
  ASSET_FIELDS,
  type AssetField,
  type AssetFieldValues,
} from '../../database/tables/assets.table.js';
import { isoTimestamp, isoTimestampOrNull } from '../../database/timestamps.js';
import type { AssetRow, StoredAssetRow } from '../../database/tables/assets.table.js';
import { ASSET_ORIGINS, type AssetOrigin } from '../../common/field-rules/inventory-values.js';
import { identityValues } from '../../common/field-rules/identity-values.js';
import { ServiceResponse } from './service-response.dto.js';
import { VulnerabilityResponse } from './vulnerability-response.dto.js';

/** What an asset's field says beyond its rule, in an answer. */
const RESPONSE_FIELD_NOTES: Record<string, ApiPropertyOptions> = {
  id: {
    description: 'A UUID, or the id given at ingestion (1 to 200 printable characters)',
    example: '6f1c2a7e-4b0d-4c8e-9a51-2f3d7b9e0c11',
  },
  ip: { description: 'IPv4 or IPv6' },
};

/**
 * A field of an answer, from its rule: always present, null where the rule allows it. The
 * rule's description speaks of writing it, so it is left out.
 */
const answerField = (rule: FieldRule, field: string) =>
  ApiProperty({
    ...fieldSchema({ ...rule, description: undefined }),
    ...RESPONSE_FIELD_NOTES[field],
    required: true,
  } as ApiPropertyOptions);

/** The id, then every field of the assets table, then what the service keeps beside them. */
export class AssetResponse extends FieldsClass<
  { id: string } & AssetFieldValues,
  'id' | AssetField
>(['id', ...ASSET_FIELDS], { id: ASSET_ID_RULE, ...ASSET_FIELD_RULES }, answerField) {
  @ApiProperty({
    type: [String],
    description: 'Its IPv4 and IPv6 addresses, the first being ip; possibly empty',
    example: ['10.0.0.1', '2001:db8::1'],
  })
  addresses: string[];

  @ApiProperty({
    type: [String],
    description: 'Its MAC addresses, written aa:bb:cc:dd:ee:ff; possibly empty',
    example: ['00:1b:21:3a:4f:5c'],
  })
  macAddresses: string[];

  @ApiProperty({
    type: [String],
    description: 'Its DNS names, in lower case; possibly empty',
    example: ['core-switch.paris.example.com'],
  })
  hostnames: string[];

  @ApiProperty({
    type: [String],
    description:
      'Its tags, as given; `internet` marks an asset facing the internet. Possibly empty',
    example: ['internet', 'pci'],
  })
  tags: string[];

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

/** How an asset came to be and when it was seen and changed, as its answer says it. */
export interface AssetLife {
  origin: AssetOrigin;
  firstSeenAt: string | null;
  lastSeenAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A stored asset's life, from its row. */
export function assetLife(row: StoredAssetRow): AssetLife {
  return {
    origin: row.origin,
    firstSeenAt: isoTimestampOrNull(row.first_seen_at),
    lastSeenAt: isoTimestampOrNull(row.last_seen_at),
    createdAt: isoTimestamp(row.created_at),
    updatedAt: isoTimestamp(row.updated_at),
  };
}

/**
 * The one mapping of a stored asset to its answer, from a row as raw SQL reads it, with its
 * lists read beside it.
 */
export function toAssetResponse(row: StoredAssetRow, details: AssetDetails): AssetResponse {
  return assetResponse(row, details, assetLife(row));
}

/**
 * An asset's answer from its fields and lists and its `life` (which an ingestion's created
 * assets share). One object, its properties set in the answer's order: spreading an object
 * built field by field into a literal takes V8's slow path, for every asset of a page.
 */
export function assetResponse(
  row: AssetRow,
  { vulnerabilities, services, sources }: AssetDetails,
  life: AssetLife,
): AssetResponse {
  const response: Record<string, unknown> = { id: row.id };
  for (const field of ASSET_FIELDS) response[field] = row[field];
  response.addresses = identityValues(row.addresses);
  response.macAddresses = identityValues(row.mac_addresses);
  response.hostnames = identityValues(row.hostnames);
  response.tags = identityValues(row.tags);
  response.source = row.source;
  response.vulnerabilities = vulnerabilities;
  response.services = services;
  response.origin = life.origin;
  response.sources = sources;
  response.firstSeenAt = life.firstSeenAt;
  response.lastSeenAt = life.lastSeenAt;
  response.createdAt = life.createdAt;
  response.updatedAt = life.updatedAt;
  return response as unknown as AssetResponse;
}
