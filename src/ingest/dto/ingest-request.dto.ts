import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { fieldSchema, type FieldRule } from '../../common/field-rules/field-rule.js';
import {
  ASSET_FIELDS,
  RELATION_FIELDS,
  VULNERABILITY_FIELDS,
} from '../../common/field-rules/inventory-fields.js';
import type { RelationDirection } from '../../relations/relation.entity.js';
import { INGEST_MODES, type IngestMode } from '../ingest-payload.js';

/*
 * Documentation only: the ingestion body is checked by hand (validate/validate-payload.ts),
 * with the same field rules as these schemas, and reaches the controller as `unknown`, which the
 * global ValidationPipe skips. These classes describe that check for the OpenAPI document and
 * are never instantiated or validated.
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

/** A field of an item, documented from its rule (the one the ingestion's checks read). */
const itemField = (rule: FieldRule, options: ApiPropertyOptions = {}) =>
  ApiPropertyOptional({ ...fieldSchema(rule), ...options } as ApiPropertyOptions);
const requiredItemField = (rule: FieldRule, options: ApiPropertyOptions = {}) =>
  ApiProperty({ ...fieldSchema(rule), ...options } as ApiPropertyOptions);

export class IngestVulnerabilityDto {
  @requiredItemField(VULNERABILITY_FIELDS.id, { description: 'Unique within the asset' })
  id: string;

  @itemField(VULNERABILITY_FIELDS.score)
  score?: number | null;

  @itemField(VULNERABILITY_FIELDS.summary)
  summary?: string | null;

  @itemField(VULNERABILITY_FIELDS.publishedDate, { format: 'date' })
  publishedDate?: string | null;
}

/** Only the fields present change when the item updates a stored asset. */
export class IngestAssetDto {
  @itemField(ASSET_FIELDS.id, {
    description:
      "The caller's external id: printable characters, unique within the payload. In merge mode a stored id updates that asset; without one a new asset gets this id (or a new UUID).",
  })
  id?: string;

  @itemField(ASSET_FIELDS.name, {
    description:
      'Required to create an asset; in merge mode an item that only updates may leave it out',
  })
  name?: string;

  @itemField(ASSET_FIELDS.ip, {
    description: `${ASSET_FIELDS.ip.description}. In merge mode, an item whose id is not stored updates the asset that holds its ip (the earliest created)`,
  })
  ip?: string | null;

  @itemField(ASSET_FIELDS.type)
  type?: string | null;

  @itemField(ASSET_FIELDS.vendor)
  vendor?: string | null;

  @itemField(ASSET_FIELDS.model)
  model?: string | null;

  @itemField(ASSET_FIELDS.risk_score)
  risk_score?: number | null;

  @itemField(ASSET_FIELDS.site)
  site?: string | null;

  @itemField(ASSET_FIELDS.os_version)
  os_version?: string | null;

  @ApiPropertyOptional({
    type: () => [IngestVulnerabilityDto],
    description: "When present, replaces the asset's list of vulnerabilities",
  })
  vulnerabilities?: IngestVulnerabilityDto[];
}

/** Matched on (sourceAssetId, targetAssetId, type) in merge mode: updated when stored. */
export class IngestRelationDto {
  @requiredItemField(RELATION_FIELDS.sourceAssetId, {
    description: "An id written in this payload's assets, or the id of a stored asset",
  })
  sourceAssetId: string;

  @requiredItemField(RELATION_FIELDS.targetAssetId, {
    description: 'As sourceAssetId, and different from it',
  })
  targetAssetId: string;

  @requiredItemField(RELATION_FIELDS.type)
  type: string;

  @itemField(RELATION_FIELDS.direction, {
    description: 'bi when a relation is created without it',
  })
  direction?: RelationDirection;

  @itemField(RELATION_FIELDS.protocol)
  protocol?: string | null;

  @itemField(RELATION_FIELDS.toPorts)
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
