import {
  addressKey,
  identityValues,
  type SpacedValues,
} from '../../common/field-rules/identity-values.js';
import type { AssetIdentifier, IdentifierKind } from '../entities/asset-identifier.entity.js';
import type { InsertColumn } from '../ingest-sql.js';
import { text } from './column-table.js';

/**
 * The asset_identifiers table: the column of each property of the entity (its relation to the
 * asset aside), in the table's order, typed as bulk inserts type it. The compiler holds it to
 * the entity.
 */
export const ASSET_IDENTIFIER_COLUMNS = {
  assetId: text('asset_id'),
  kind: text('kind'),
  value: text('value'),
} as const satisfies { [P in Exclude<keyof AssetIdentifier, 'asset'>]-?: InsertColumn };

/** Every column, in the table's order: what an insert of a whole row writes. */
export const ASSET_IDENTIFIER_INSERT_COLUMNS: InsertColumn[] =
  Object.values(ASSET_IDENTIFIER_COLUMNS);

/**
 * An asset's identity lists and tags as the columns of its row hold them (values separated by
 * spaces).
 */
export interface IdentityColumns {
  addresses: string;
  mac_addresses: string;
  hostnames: string;
  tags: string;
}

/** The lists of a row's columns. */
export const identityOfRow = (row: IdentityColumns): SpacedValues => ({
  addresses: identityValues(row.addresses),
  macAddresses: identityValues(row.mac_addresses),
  hostnames: identityValues(row.hostnames),
  tags: identityValues(row.tags),
});

/**
 * The identifier rows of an asset's lists, as (kind, value) pairs without repeats: an address
 * by its key (two spellings of one address, with and without a zone id, are one row).
 */
export function identifierPairs(values: SpacedValues): [IdentifierKind, string][] {
  const pairs = new Map<string, [IdentifierKind, string]>();
  const add = (kind: IdentifierKind, value: string | null) => {
    if (value !== null) pairs.set(`${kind} ${value}`, [kind, value]);
  };
  for (const address of values.addresses) add('ip', addressKey(address));
  for (const mac of values.macAddresses) add('mac', mac);
  for (const hostname of values.hostnames) add('host', hostname);
  for (const tag of values.tags) add('tag', tag);
  return [...pairs.values()];
}

/** An insert's rows of an asset's lists, in ASSET_IDENTIFIER_INSERT_COLUMNS' order. */
export const identifierRows = (assetId: string, values: SpacedValues): unknown[][] =>
  identifierPairs(values).map(([kind, value]) => [assetId, kind, value]);
