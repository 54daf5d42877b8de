import { placeholders, type IngestSql } from '../../ingest-sql.js';
import { RELATION_INSERT_COLUMNS, type IngestedRelationRow } from '../../tables/relations.table.js';

const RELATION_UPSERT =
  'ON CONFLICT (id) DO UPDATE SET direction = excluded.direction, protocol = excluded.protocol, to_ports = excluded.to_ports, updated_at = excluded.updated_at';

/** `items` mapped one by one as they are taken (by IngestSql.insert). */
function* mapped<T>(items: readonly T[], map: (item: T) => unknown[]): Generator<unknown[]> {
  for (const item of items) yield map(item);
}

/**
 * An ingestion's writes of relations, in its transaction (the apply stage), with multi-row
 * statements (IngestSql.insert), the same on either database.
 */
export class RelationIngestWrites {
  /** created_at and updated_at of every row written, as the database takes them. */
  private readonly now: unknown;

  /** `now`: the run's time. */
  constructor(
    private readonly sql: IngestSql,
    now: Date,
  ) {
    this.now = sql.timestamp(now);
  }

  /** replace: every relation deleted; answers how many. */
  deleteAll(): Promise<number> {
    return this.sql.run('DELETE FROM relations');
  }

  /** New relations. */
  async insert(relations: readonly IngestedRelationRow[]): Promise<void> {
    await this.sql.insert('relations', RELATION_INSERT_COLUMNS, mapped(relations, this.row));
  }

  /** Matched relations written again: their direction, protocol and ports. */
  async upsert(relations: readonly IngestedRelationRow[]): Promise<void> {
    await this.sql.insert(
      'relations',
      RELATION_INSERT_COLUMNS,
      mapped(relations, this.row),
      RELATION_UPSERT,
    );
  }

  /** A relation's row in RELATION_INSERT_COLUMNS' order. */
  private readonly row = (relation: IngestedRelationRow): unknown[] => [
    relation.id,
    relation.source_asset_id,
    relation.target_asset_id,
    relation.type,
    relation.direction,
    relation.protocol,
    relation.to_ports,
    this.now,
    this.now,
  ];

  /** The relations to or from these assets (at most idsPerStatement) deleted; answers how many. */
  deleteTouching(assetIds: string[]): Promise<number> {
    const list = placeholders(assetIds);
    return this.sql.run(
      `DELETE FROM relations WHERE source_asset_id IN (${list}) OR target_asset_id IN (${list})`,
      [...assetIds, ...assetIds],
    );
  }

  /** The relations of these ids (at most idsPerStatement) deleted; answers how many. */
  delete(ids: string[]): Promise<number> {
    return this.sql.run(`DELETE FROM relations WHERE id IN (${placeholders(ids)})`, ids);
  }
}
