import { IDENTITY_LIST_DOCS } from '../../assets/dto/identity-list-docs.js';
import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { fieldSchema, type FieldRule } from '../../common/field-rules/field-rule.js';
import {
  ASSET_FIELD_RULES,
  ASSET_ID_RULE,
  RELATION_FIELDS,
  VULNERABILITY_FIELDS,
} from '../../common/field-rules/inventory-fields.js';
import { ServiceInput } from '../../assets/dto/service-input.dto.js';
import { FieldsClass } from '../../common/field-rules/fields-class.js';
import {
  ASSET_FIELDS,
  type AssetField,
  type AssetFieldValues,
} from '../../database/tables/assets.table.js';
import type { RelationDirection } from '../../common/field-rules/inventory-values.js';
import { INGEST_MODES, type IngestMatchKey, type IngestMode } from '../ingest-payload.js';

const MATCH_KEYS: IngestMatchKey[] = ['id', 'mac', 'ip', 'hostname'];

/*
 * Documentation only: the ingestion body is checked by hand (validate/validate-payload.ts),
 * with the same field rules as these schemas, and reaches the controller as `unknown`, which the
 * global ValidationPipe skips. These classes describe that check for the OpenAPI document and
 * are never instantiated or validated.
 * Every object refuses properties it does not list; null counts as absent where `nullable`.
 * The options' defaults are told in their descriptions rather than as `default`: generators
 * (openapi-typescript) make a property with a default required, yet a client may leave it out.
 */

export class IngestOptionsDto {
  @ApiPropertyOptional({
    enum: INGEST_MODES,
    enumName: 'IngestMode',
    nullable: true,
    description:
      'merge (when absent or null): update what is recognised (by id, else by ip unless matchBy says id only), create the rest. append: create every item, an id already stored (or merged into a stored asset) is a 409. replace (admin only): delete every asset, vulnerability and relation, then create the payload; diagrams stay.',
  })
  mode?: IngestMode | null;

  @ApiPropertyOptional({
    type: Boolean,
    nullable: true,
    description:
      "false when absent or null. merge only (a 400 with append; replace implies it): after merging, delete the stale assets with their relations, and the relations among the payload's assets that it does not list. With a source S (editor or admin): the candidates are the assets whose sources hold S that the payload does not name; S is taken out of their sources, and one is deleted only when no source is left and an ingestion created it (origin ingest): an asset made through POST /api/assets is never deleted this way. Without a source (admin only, 403 for an editor): every stored asset the payload does not name is deleted, whoever made it.",
    example: true,
  })
  deleteStale?: boolean | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    minLength: 1,
    maxLength: 100,
    description:
      "Names the feed. Written as `source` on every asset the run creates or updates, added (last) to the `sources` of every asset it names, and sets their `lastSeenAt` (and a first `firstSeenAt`) to the run's time. deleteStale then only concerns this feed's assets.",
    example: 'nmap-dmz',
  })
  source?: string | null;

  @ApiPropertyOptional({
    type: Boolean,
    nullable: true,
    description:
      'false when absent or null. true: validate, match and plan exactly as the real run, write nothing (not even lastSeenAt), and answer the same 200 (with `"dryRun": true`), 400, 403 or 409. It takes no write lock: other ingestions are not held up.',
    example: true,
  })
  dryRun?: boolean | null;

  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    minimum: 0,
    description:
      'Refuse the run (409, nothing written) when it would delete more assets than this: deleteStale, or replace (which deletes every stored asset). Checked before any write, also for a dry run. No limit when absent.',
    example: 10,
  })
  maxDeletions?: number | null;

  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    minimum: 0,
    description:
      'Refuse the run (409, nothing written) when it would fix more findings than this (a scan whose credentials failed reports no vulnerabilities, and must not close them all). Also for a dry run. No limit when absent.',
    example: 50,
  })
  maxFixes?: number | null;

  @ApiPropertyOptional({
    type: [String],
    nullable: true,
    enum: MATCH_KEYS,
    description:
      'merge: how an item whose id is not stored finds the stored asset it updates: keys among id, mac, ip and hostname, id among them, none twice; ["id", "mac", "ip"] when absent or null. They are tried in the order mac (an asset holding one of its MAC addresses), ip (one of its addresses), hostname (one of its host names), whatever the order written; among several, the earliest created asset that no other item of the payload takes. ["id"]: by id only. An item with a site (its own, else options.site) matches by ip and hostname only assets of that site; MAC addresses match across sites.',
    example: ['id', 'mac', 'ip', 'hostname'],
  })
  matchBy?: IngestMatchKey[] | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: 255,
    description:
      "The site of every item that gives none: it is written on the asset, and scopes the item's matching by ip and hostname to the assets of that site.",
    example: 'paris',
  })
  site?: string | null;
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

/** What an item's field says beyond its rule. */
const ITEM_FIELD_NOTES: Record<string, ApiPropertyOptions> = {
  id: {
    description:
      "The caller's external id: printable characters, unique within the payload. In merge mode a stored id updates that asset; without one a new asset gets this id (or a new UUID).",
  },
  name: {
    description:
      'Required to create an asset; in merge mode an item that only updates may leave it out',
  },
  ip: {
    description: `${ASSET_FIELD_RULES.ip.description}. In merge mode, an item whose id is not stored updates the asset that holds its ip (the earliest created that no other item takes)`,
  },
};

/**
 * The id, then every field of the assets table, documented from its rule. Only the fields present
 * change when the item updates a stored asset.
 */
export class IngestAssetDto extends FieldsClass<
  { id?: string } & Partial<AssetFieldValues>,
  'id' | AssetField
>(['id', ...ASSET_FIELDS], { id: ASSET_ID_RULE, ...ASSET_FIELD_RULES }, (rule, field) =>
  itemField(rule, ITEM_FIELD_NOTES[field]),
) {
  @ApiPropertyOptional(IDENTITY_LIST_DOCS.addresses)
  addresses?: string[];

  @ApiPropertyOptional(IDENTITY_LIST_DOCS.macAddresses)
  macAddresses?: string[];

  @ApiPropertyOptional(IDENTITY_LIST_DOCS.hostnames)
  hostnames?: string[];

  @ApiPropertyOptional(IDENTITY_LIST_DOCS.tags)
  tags?: string[];

  @ApiPropertyOptional({
    type: () => [IngestVulnerabilityDto],
    description: "When present, replaces the asset's list of vulnerabilities",
  })
  vulnerabilities?: IngestVulnerabilityDto[];

  @ApiPropertyOptional({
    type: () => [ServiceInput],
    description:
      "When present, replaces the asset's list of services; at most one entry per (port, protocol)",
    example: [{ port: 443, protocol: 'tcp', name: 'https', product: 'nginx', version: '1.24.0' }],
  })
  services?: ServiceInput[];
}

/** Matched on (sourceAssetId, targetAssetId, type) in merge mode: updated when stored. */
export class IngestRelationDto {
  @requiredItemField(RELATION_FIELDS.sourceAssetId, {
    description:
      "An id written in this payload's assets, or the id of a stored asset (an id merged into one names it)",
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
  @ApiPropertyOptional({
    type: () => IngestOptionsDto,
    nullable: true,
    example: {
      source: 'nmap-dmz',
      deleteStale: true,
      maxDeletions: 10,
      maxFixes: 50,
      dryRun: true,
    },
  })
  options?: IngestOptionsDto | null;

  @ApiPropertyOptional({ type: () => [IngestAssetDto], nullable: true })
  assets?: IngestAssetDto[] | null;

  @ApiPropertyOptional({ type: () => [IngestRelationDto], nullable: true })
  relations?: IngestRelationDto[] | null;
}
