import type { Relation } from '../entities/relation.entity.js';
import type { InsertColumn } from '../ingest-sql.js';
import { text, timestamp, type RowOf } from './column-table.js';

/**
 * The relations table: the column of each property of the entity (its asset references aside),
 * in the table's order, typed as bulk inserts type it. The compiler holds it to the entity.
 */
export const RELATION_COLUMNS = {
  id: text('id'),
  sourceAssetId: text('source_asset_id'),
  targetAssetId: text('target_asset_id'),
  type: text('type'),
  direction: text('direction'),
  protocol: text('protocol'),
  toPorts: text('to_ports'),
  createdAt: timestamp('created_at'),
  updatedAt: timestamp('updated_at'),
} as const satisfies {
  [P in Exclude<keyof Relation, 'sourceAsset' | 'targetAsset'>]-?: InsertColumn;
};

/** Every column, in the table's order: what an insert of a whole row writes. */
export const RELATION_INSERT_COLUMNS: InsertColumn[] = Object.values(RELATION_COLUMNS);

/** A whole relations row as raw SQL reads it (`SELECT *`), its timestamps as the driver gives them. */
export type StoredRelationRow = RowOf<Relation, typeof RELATION_COLUMNS>;

/**
 * A relations row without its timestamps, as an ingestion reads and writes it: its direction
 * is the text the payload and the table hold.
 */
export type IngestedRelationRow = Omit<
  StoredRelationRow,
  'created_at' | 'updated_at' | 'direction'
> & { direction: string };

/** The columns of an IngestedRelationRow, in the table's order. */
export const RELATION_ROW_COLUMNS = RELATION_INSERT_COLUMNS.filter(
  ({ type }) => type !== 'timestamptz',
).map(({ name }) => name);
