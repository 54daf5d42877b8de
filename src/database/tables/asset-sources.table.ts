import type { AssetSource } from '../entities/asset-source.entity.js';
import type { InsertColumn } from '../ingest-sql.js';
import { integer, text, type RowOf } from './column-table.js';

/**
 * The asset_sources table (an asset's `sources`): the column of each property of the entity
 * (its relation to the asset aside), in the table's order, typed as bulk inserts type it. The
 * compiler holds it to the entity. The inserts, the selects and the row type are derived from it.
 */
export const ASSET_SOURCE_COLUMNS = {
  assetId: text('asset_id'),
  source: text('source'),
  position: integer('position'),
} as const satisfies { [P in Exclude<keyof AssetSource, 'asset'>]-?: InsertColumn };

/** Every column, in the table's order: what an insert of a whole row writes. */
export const ASSET_SOURCE_INSERT_COLUMNS: InsertColumn[] = Object.values(ASSET_SOURCE_COLUMNS);

/** An asset_sources row, as raw SQL reads it. */
export type PositionedSourceRow = RowOf<AssetSource, typeof ASSET_SOURCE_COLUMNS>;

/** An asset_sources row without its position, as the API's reads take it (in position order). */
export type AssetSourceRow = Omit<PositionedSourceRow, 'position'>;
