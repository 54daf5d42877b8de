import type { EntityManager } from 'typeorm';
import { Logger } from '@nestjs/common';
import type { Pool } from 'pg';
import type { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver.js';
import {
  Dialect,
  type IngestionWritten,
  type InstanceLocks,
  type JsonEntry,
  type JsonListField,
  type PoolStats,
} from '../dialect/dialect.js';
import {
  INGESTED_TABLES,
  type IngestLookups,
  type IngestSql,
  type UnitSql,
} from '../ingest-sql.js';
import { PostgresIngestSql } from './postgres-ingest-sql.js';
import { PostgresInstanceLocks } from './postgres-instance-locks.js';

// Serializes ingestions across every process sharing a PostgreSQL database.
export const POSTGRES_INGEST_LOCK = 7_402_151_001;

/**
 * PostgreSQL's planner statistics are refreshed after a run whose creations and deletions reach
 * a tenth of the assets the planner believes stored (autovacuum's own threshold), at least this
 * many. Autovacuum would refresh them up to a minute later; meanwhile the planner still sees the
 * tables as they were (empty, after a first load) and pages the list by scanning every row.
 * A run that writes this many assets also has the search index's pending entries merged.
 */
const ANALYZE_MIN_ROWS = 1000;
/**
 * Merges into the search's trigram index (migration AssetSearch) the entries that writes left in
 * its pending list. GIN keeps new rows' entries there, up to gin_pending_list_limit, and every
 * scan of the index reads the whole list, once per searched column; the planner prices that in,
 * and may scan the table instead. Vacuum merges the list, but only when autovacuum comes by;
 * the merge costs at most that limit's worth of entries.
 */
const MERGE_PENDING_SEARCH_ENTRIES = `SELECT gin_clean_pending_list('"IDX_assets_search"'::regclass)`;
const PLANNED_ASSETS = `SELECT reltuples FROM pg_class WHERE oid = 'assets'::regclass`;
const ANALYZE_INGESTED = `ANALYZE ${[...INGESTED_TABLES, 'changes'].join(', ')}`;

/** PostgreSQL: a server, a pool of connections, rows locked by the writers that change them. */
export class PostgresDialect extends Dialect {
  readonly lockRows = 'FOR UPDATE';

  claimRows(alias: string): string {
    return `FOR UPDATE OF ${alias} SKIP LOCKED`;
  }

  readonly oneWriter = false;
  private readonly logger = new Logger('PostgreSQL');

  constructor(private readonly dataSource: DataSource) {
    super();
  }

  // Kept by statement triggers as rows of deltas (migration AssetCount).
  readonly countedAssets = 'SELECT COALESCE(SUM(delta), 0) AS total FROM asset_count';

  /** LIKE is answered from the trigram index of the searched columns (migration AssetSearch). */
  searchIndex(): null {
    return null;
  }

  isoTimestamp(column: string): string {
    return `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  }

  dateText(column: string): string {
    return `CAST(${column} AS TEXT)`;
  }

  utcDay(column: string): string {
    return `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD')`;
  }

  plusDaysOrder(timestamp: string, days: string): string {
    return `(${timestamp} + (${days}) * INTERVAL '1 day')`;
  }

  sortKeyText(column: string, timestamp: boolean): string {
    if (timestamp)
      return `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') || '+00'`;
    return `CAST(${column} AS TEXT)`;
  }

  // Its planner weighs the conditions by the statistics it keeps.
  unindexed(column: string): string {
    return column;
  }

  // One array: the text is the same whatever the number of values, and is prepared once.
  inList(column: string, parameter: string): string {
    return `${column} = ANY(:${parameter})`;
  }

  idListValues(ids: readonly string[]): unknown[] {
    return [ids];
  }

  bytewise(column: string): string {
    return `${column} COLLATE "C"`;
  }

  portListHolds(column: string, port: string): string {
    return `EXISTS (
      SELECT 1 FROM unnest(string_to_array(${column}, ',')) AS p(item)
      WHERE CASE WHEN p.item ~ '^[0-9]{1,5}(-[0-9]{1,5})?$'
        THEN split_part(p.item, '-', 1)::integer <= :${port}
          AND COALESCE(NULLIF(split_part(p.item, '-', 2), ''), p.item)::integer >= :${port}
        ELSE false END)`;
  }

  // row_to_json and array_to_json write compact JSON, as the API does (json_build_object and
  // json_agg add spaces).
  jsonObject(entries: readonly JsonEntry[], from: string): string {
    const columns = entries.map(
      ([key, value]) => `${typeof value === 'string' ? value : postgresList(value)} AS "${key}"`,
    );
    return `(SELECT row_to_json(a)::text FROM (SELECT ${columns.join(', ')} ${from}) a)`;
  }

  spacedListJson(expression: string): string {
    // An empty text is an empty array.
    return `array_to_json(string_to_array(${expression}, ' '))`;
  }

  // From the ids themselves, in their order: the rows were just written, and looking each one up
  // again by its key cost a large part of a first ingestion.
  createdRecordsSelect(objectType: string): string {
    return `SELECT ? || lpad(to_hex(CAST(? AS bigint) + x.n), 12, '0'), CAST(? AS timestamptz), 'create', '${objectType}', x.id,
    CAST(? AS integer), NULL, NULL
    FROM unnest(CAST(? AS text[])) WITH ORDINALITY AS x(id, n)`;
  }

  instanceLocks(): InstanceLocks {
    return new PostgresInstanceLocks((this.dataSource.options as { url: string }).url);
  }

  /** From the pg pool TypeORM's driver holds (its public `master`, gone once closed). */
  poolStats(): PoolStats | null {
    const pool = (this.dataSource.driver as PostgresDriver).master as Pool | undefined;
    return {
      total: pool?.totalCount ?? 0,
      idle: pool?.idleCount ?? 0,
      waiting: pool?.waitingCount ?? 0,
    };
  }

  /**
   * Lookups go to a second connection, in a read-only transaction that imports the write
   * transaction's snapshot once the lock is held: like SQLite's read-only connection, it shows
   * the state before the ingestion (none of its writes), so each slice is written as soon as
   * it is planned, while the next one is looked up and planned (PostgresIngestSql queues the
   * writes). One ingestion at a time per process: two connections of the pool at most.
   */
  unitSql(manager: EntityManager): UnitSql {
    return new PostgresIngestSql(this, manager.queryRunner!);
  }

  async inIngestion<T>(work: (sql: IngestSql, lookups: IngestLookups) => Promise<T>): Promise<T> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      const sql = new PostgresIngestSql(this, runner);
      try {
        await runner.query('SELECT pg_advisory_xact_lock($1)', [POSTGRES_INGEST_LOCK]);
        const [{ snapshot }] = (await runner.query('SELECT pg_export_snapshot() AS snapshot')) as {
          snapshot: string;
        }[];
        const result = await this.lookups(snapshot, (lookups) => work(sql, lookups));
        await sql.settle();
        await runner.commitTransaction();
        return result;
      } catch (error) {
        await sql.drain();
        await runner.rollbackTransaction();
        throw error;
      }
    } finally {
      await runner.release();
    }
  }

  inSnapshot<T>(work: (lookups: IngestLookups) => Promise<T>): Promise<T> {
    return this.lookups(null, work);
  }

  async afterIngestion({ rowsMoved, assetsWritten }: IngestionWritten): Promise<void> {
    if (assetsWritten >= ANALYZE_MIN_ROWS) {
      try {
        await this.dataSource.query(MERGE_PENDING_SEARCH_ENTRIES);
      } catch (error) {
        // Autovacuum will merge them.
        this.logger.warn(`search index not merged: ${(error as Error).message}`);
      }
    }
    if (rowsMoved < ANALYZE_MIN_ROWS) return;
    try {
      const [{ reltuples }] = await this.dataSource.query<{ reltuples: number }[]>(PLANNED_ASSETS);
      // -1: never analyzed.
      if (rowsMoved >= Math.max(0, reltuples) / 10) await this.dataSource.query(ANALYZE_INGESTED);
    } catch (error) {
      // The run is committed and answered as it is; autovacuum will catch up.
      this.logger.warn(`planner statistics not refreshed: ${(error as Error).message}`);
    }
  }

  async settled(): Promise<void> {}

  /**
   * `work` given lookups in a read-only REPEATABLE READ transaction of its own: a consistent
   * view of the store that takes no lock other writers wait for; `snapshot` (exported by
   * another transaction) makes it that transaction's view.
   */
  private async lookups<T>(
    snapshot: string | null,
    work: (lookups: IngestLookups) => Promise<T>,
  ): Promise<T> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction('REPEATABLE READ');
      try {
        // An identifier PostgreSQL made (hex digits and dashes), which SET cannot take as a
        // parameter.
        if (snapshot !== null) await runner.query(`SET TRANSACTION SNAPSHOT '${snapshot}'`);
        await runner.query('SET TRANSACTION READ ONLY');
        // Every lookup names its rows by key, a slice's ids at a time. With the default costs
        // (random_page_cost 4, for spinning disks) the planner reads a whole large table for a
        // slice's ids, which costs far more than reading them by index.
        await runner.query('SET LOCAL enable_seqscan = off');
        return await work(new PostgresIngestSql(this, runner));
      } finally {
        await runner.rollbackTransaction();
      }
    } finally {
      await runner.release();
    }
  }
}

/** A list of rows (or of one column's values) as a JSON array, `[]` when none. */
function postgresList({ from, orderBy, fields }: JsonListField): string {
  const order = orderBy.map((column) => `v.${column}`).join(', ');
  if (typeof fields === 'string') {
    const columns = [fields, ...orderBy.filter((column) => column !== fields)].join(', ');
    return `COALESCE((SELECT array_to_json(array_agg(v.${fields} ORDER BY ${order})) FROM (SELECT ${columns} ${from}) v), '[]')`;
  }
  const columns = fields.map(([key, expression]) => `${expression} AS "${key}"`).join(', ');
  return `COALESCE((SELECT array_to_json(array_agg(row_to_json(v) ORDER BY ${order})) FROM (SELECT ${columns} ${from}) v), '[]')`;
}
