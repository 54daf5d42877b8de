import type { Asset } from '../entities/asset.entity.js';
import type { InsertColumn } from '../ingest-sql.js';
import { SEARCHED_WITH_IDENTITY } from '../migrations/asset-search-sql.js';
import { integer, text, timestamp, type RowOf } from './column-table.js';

/**
 * The assets table: the column of each property of the entity, in the table's order, typed as
 * bulk inserts type it. The compiler holds it to the entity (every property, no other). The
 * ingestion's inserts and selects, the fields an item sets, their row type and the change
 * history's copy of an asset are derived from it.
 */
export const ASSET_COLUMNS = {
  id: text('id'),
  name: text('name'),
  ip: text('ip'),
  type: text('type'),
  vendor: text('vendor'),
  model: text('model'),
  riskScore: integer('risk_score'),
  site: text('site'),
  osVersion: text('os_version'),
  source: text('source'),
  origin: text('origin'),
  firstSeenAt: timestamp('first_seen_at'),
  lastSeenAt: timestamp('last_seen_at'),
  createdAt: timestamp('created_at'),
  updatedAt: timestamp('updated_at'),
  addresses: text('addresses'),
  macAddresses: text('mac_addresses'),
  hostnames: text('hostnames'),
  tags: text('tags'),
} as const satisfies { [P in keyof Asset]-?: InsertColumn };

/** Every column, in the table's order: what an insert of a whole row writes. */
export const ASSET_INSERT_COLUMNS: InsertColumn[] = Object.values(ASSET_COLUMNS);

/** The properties an item (of the API or of an ingestion) sets, in the table's order. */
const FIELD_PROPERTIES = [
  'name',
  'ip',
  'type',
  'vendor',
  'model',
  'riskScore',
  'site',
  'osVersion',
] as const satisfies readonly (keyof Asset)[];
type FieldProperty = (typeof FIELD_PROPERTIES)[number];

/** The column of each field an item sets: also its name in the API and in the rows read. */
export type AssetField = (typeof ASSET_COLUMNS)[FieldProperty]['name'];

/** The columns of the fields an item sets, in the table's order. */
export const ASSET_FIELDS = FIELD_PROPERTIES.map(
  (property) => ASSET_COLUMNS[property].name,
) as readonly AssetField[];

/** Those fields' values, keyed by column, typed as the entity types them. */
export type AssetFieldValues = {
  [P in FieldProperty as (typeof ASSET_COLUMNS)[P]['name']]: Asset[P];
};

/** The entity's properties of the fields an item sets. */
export type AssetFieldProperties = Pick<Asset, FieldProperty>;

/**
 * The entity's properties of the fields `values` carries, keyed by property: what a write of
 * them changes. With `absent` null, every field it leaves out is null (a new asset's).
 */
export function assetFieldProperties(
  values: Partial<AssetFieldValues>,
  absent: null,
): AssetFieldProperties;
export function assetFieldProperties(
  values: Partial<AssetFieldValues>,
): Partial<AssetFieldProperties>;
export function assetFieldProperties(
  values: Partial<AssetFieldValues>,
  absent?: null,
): Partial<AssetFieldProperties> {
  const properties: Partial<Record<FieldProperty, unknown>> = {};
  for (const property of FIELD_PROPERTIES) {
    const value = values[ASSET_COLUMNS[property].name];
    if (value !== undefined) properties[property] = value;
    else if (absent === null) properties[property] = null;
  }
  return properties as Partial<AssetFieldProperties>;
}

/** An assets row as raw SQL reads it (`SELECT *`), its timestamps as the driver gives them. */
export type StoredAssetRow = RowOf<Asset, typeof ASSET_COLUMNS>;

/**
 * The columns of an asset's lists held as text, values separated by spaces (the identity lists
 * and the tags), in the table's order.
 */
export const LIST_COLUMNS = ['addresses', 'mac_addresses', 'hostnames', 'tags'] as const;
export type ListColumn = (typeof LIST_COLUMNS)[number];

/** Each list column with the list's name in the API. */
export const LIST_FIELDS = [
  ['addresses', 'addresses'],
  ['mac_addresses', 'macAddresses'],
  ['hostnames', 'hostnames'],
  ['tags', 'tags'],
] as const satisfies readonly (readonly [ListColumn, string])[];

/** An assets row as the ingestion plans and writes it: its fields, lists, id and source. */
export type AssetRow = Pick<StoredAssetRow, 'id' | AssetField | ListColumn | 'source'>;

/**
 * The columns the list's `search` reads: those the search index covers, as its latest
 * migration (AssetIdentitySearch) made it: the fields, and the identity lists in their text.
 */
export const SEARCHED_COLUMNS = SEARCHED_WITH_IDENTITY;
