import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { MAX_ASSET_ID_LENGTH } from '../../assets/asset.entity.js';
import { IP_PROPERTY, PORT_LIST_PROPERTY } from '../../common/openapi/properties.js';
import { RelationDirection } from '../../relations/relation.entity.js';
import { INGEST_MODES, type IngestMode } from '../ingest-payload.js';

/*
 * Documentation only: the ingestion body is checked by parseIngestPayload (ingest-payload.ts),
 * by hand, and reaches the controller as `unknown`, which the global ValidationPipe skips. These
 * classes describe that check for the OpenAPI document and are never instantiated or validated.
 * Every object refuses properties it does not list; null counts as absent where `nullable`.
 */

export class IngestOptionsDto {
  @ApiPropertyOptional({
    enum: INGEST_MODES,
    enumName: 'IngestMode',
    nullable: true,
    default: 'merge',
    description:
      'merge: update what is recognised (by id, else by ip), create the rest. append: create every item, an id already stored is a 409. replace (admin only): delete every asset, vulnerability and relation, then create the payload; diagrams stay.',
  })
  mode?: IngestMode | null;

  @ApiPropertyOptional({
    type: Boolean,
    nullable: true,
    default: false,
    description:
      "merge only (a 400 with append; replace implies it): then delete the stored assets the payload does not name, with their vulnerabilities and relations (with a source, only assets last written by that source), and the relations among the payload's assets that it does not list",
  })
  deleteStale?: boolean | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    minLength: 1,
    maxLength: 100,
    description: 'Names the feed; recorded on every asset the run creates or updates',
    example: 'nmap-dmz',
  })
  source?: string | null;
}

export class IngestVulnerabilityDto {
  @ApiProperty({
    minLength: 1,
    maxLength: 64,
    description: 'Unique within the asset',
    example: 'CVE-2024-3400',
  })
  id: string;

  @ApiPropertyOptional({ type: Number, nullable: true, minimum: 0, maximum: 10, example: 10 })
  score?: number | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 2000, example: 'PAN-OS RCE' })
  summary?: string | null;

  @ApiPropertyOptional({
    type: String,
    format: 'date',
    nullable: true,
    description: 'A real calendar date, YYYY-MM-DD',
    example: '2024-04-12',
  })
  publishedDate?: string | null;
}

/** Only the fields present change when the item updates a stored asset. */
export class IngestAssetDto {
  @ApiPropertyOptional({
    minLength: 1,
    maxLength: MAX_ASSET_ID_LENGTH,
    description:
      "The caller's external id: printable characters, unique within the payload. In merge mode a stored id updates that asset; without one a new asset gets this id (or a new UUID).",
    example: 'fw-1',
  })
  id?: string;

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 255,
    description:
      'Required to create an asset; in merge mode an item that only updates may leave it out',
    example: 'fw-1',
  })
  name?: string;

  @ApiPropertyOptional({
    ...IP_PROPERTY,
    description: `${IP_PROPERTY.description}. In merge mode, an item whose id is not stored updates the asset that holds its ip (the earliest created)`,
  })
  ip?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 64, example: 'firewall' })
  type?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 255, example: 'Palo Alto' })
  vendor?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 255, example: 'PA-3220' })
  model?: string | null;

  @ApiPropertyOptional({ type: 'integer', nullable: true, minimum: 0, maximum: 100, example: 80 })
  risk_score?: number | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 255, example: 'paris' })
  site?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 255, example: 'PAN-OS 11.1' })
  os_version?: string | null;

  @ApiPropertyOptional({
    type: () => [IngestVulnerabilityDto],
    description: "When present, replaces the asset's list of vulnerabilities",
  })
  vulnerabilities?: IngestVulnerabilityDto[];
}

/** Matched on (sourceAssetId, targetAssetId, type) in merge mode: updated when stored. */
export class IngestRelationDto {
  @ApiProperty({
    minLength: 1,
    maxLength: MAX_ASSET_ID_LENGTH,
    description: "An id written in this payload's assets, or the id of a stored asset",
    example: 'web-1',
  })
  sourceAssetId: string;

  @ApiProperty({
    minLength: 1,
    maxLength: MAX_ASSET_ID_LENGTH,
    description: 'As sourceAssetId, and different from it',
    example: 'fw-1',
  })
  targetAssetId: string;

  @ApiProperty({ minLength: 1, maxLength: 64, example: 'route' })
  type: string;

  @ApiPropertyOptional({
    enum: RelationDirection,
    enumName: 'RelationDirection',
    description: 'bi when a relation is created without it',
  })
  direction?: RelationDirection;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 32, example: 'tcp' })
  protocol?: string | null;

  @ApiPropertyOptional(PORT_LIST_PROPERTY)
  toPorts?: string | null;
}

export class IngestRequestDto {
  @ApiPropertyOptional({ type: () => IngestOptionsDto, nullable: true })
  options?: IngestOptionsDto | null;

  @ApiPropertyOptional({ type: () => [IngestAssetDto], nullable: true })
  assets?: IngestAssetDto[] | null;

  @ApiPropertyOptional({ type: () => [IngestRelationDto], nullable: true })
  relations?: IngestRelationDto[] | null;
}
