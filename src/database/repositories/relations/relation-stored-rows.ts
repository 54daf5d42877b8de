import { placeholders, selectIn, type IngestLookups } from '../../ingest-sql.js';
import {
  RELATION_ROW_COLUMNS,
  type IngestedRelationRow,
  type StoredRelationRow,
} from '../../tables/relations.table.js';

export type { IngestedRelationRow, StoredRelationRow };

const RELATION_SELECT = `SELECT ${RELATION_ROW_COLUMNS.join(', ')} FROM relations`;
const TOUCHING = (list: string) =>
  `WHERE source_asset_id IN (${list}) OR target_asset_id IN (${list})`;

/**
 * The ingestion's reads of relations, on its lookups' connection (the match stage), or on its
 * transaction (what its change records show of the relations it deletes).
 */
export class RelationStoredRows {
  constructor(private readonly db: IngestLookups) {}

  /** The relations from these assets, the earliest created first. */
  from(sourceIds: readonly string[]): Promise<IngestedRelationRow[]> {
    return selectIn(
      this.db,
      RELATION_SELECT,
      'source_asset_id',
      sourceIds,
      'ORDER BY created_at, id',
    );
  }

  /** The relations of these ids, in no order. */
  byId(ids: readonly string[]): Promise<IngestedRelationRow[]> {
    return selectIn(this.db, RELATION_SELECT, 'id', ids);
  }

  /**
   * The relations to or from these assets (at most idsPerStatement): every one, or with
   * `first` only the first ones in id order.
   */
  touching(assetIds: string[], first: number | null): Promise<IngestedRelationRow[]> {
    const limit = first === null ? '' : `ORDER BY ${this.db.idOrder} LIMIT ${first}`;
    return this.db.all<IngestedRelationRow>(
      `${RELATION_SELECT} ${TOUCHING(placeholders(assetIds))} ${limit}`,
      [...assetIds, ...assetIds],
    );
  }

  /** The first `limit` relations in id order. */
  first(limit: number): Promise<IngestedRelationRow[]> {
    return this.db.all<IngestedRelationRow>(
      `${RELATION_SELECT} ORDER BY ${this.db.idOrder} LIMIT ${limit}`,
    );
  }

  /** How many relations are stored. */
  async count(): Promise<number> {
    const [row] = await this.db.all<{ count: number }>(
      'SELECT CAST(COUNT(*) AS INTEGER) AS count FROM relations',
    );
    return Number(row.count);
  }

  /** Every stored relation, whole. */
  allRows(): Promise<StoredRelationRow[]> {
    return this.db.all<StoredRelationRow>('SELECT * FROM relations');
  }

  /** The relations to or from these assets (at most idsPerStatement), whole. */
  rowsTouching(assetIds: string[]): Promise<StoredRelationRow[]> {
    return this.db.all<StoredRelationRow>(
      `SELECT * FROM relations ${TOUCHING(placeholders(assetIds))}`,
      [...assetIds, ...assetIds],
    );
  }

  /** The relations of these ids (at most idsPerStatement), whole. */
  rows(ids: string[]): Promise<StoredRelationRow[]> {
    return this.db.all<StoredRelationRow>(
      `SELECT * FROM relations WHERE id IN (${placeholders(ids)})`,
      ids,
    );
  }
}
