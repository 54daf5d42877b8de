import type { EntityManager } from 'typeorm';
import { SqliteUnitSql } from './sqlite-unit-sql.js';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { SQLITE_BUSY_TIMEOUT_MS } from '../database-options.js';
import type { DataSource } from 'typeorm';
import {
  Dialect,
  type AssetSearchIndex,
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
import { SqliteLookups } from './sqlite-lookups.js';
import { SqliteSearchIndex } from './sqlite-search-index.js';
import { SqliteWriter } from './sqlite-writer.js';

// Their indexes are rebuilt after a load while they are small (SqliteWriter.open): the change
// records and the outbox's deliveries, which a load adds a row to for each asset it creates.
const REBUILT_TABLES = ['changes', 'webhook_deliveries'];

/** SQLite: one file, one writer at a time, statements run on this thread. */
export class SqliteDialect extends Dialect {
  readonly lockRows = '';

  claimRows(): string {
    return '';
  }

  readonly oneWriter = true;
  /** The ingestions' writers still checkpointing the log after their commit. */
  private readonly checkpoints = new Set<Promise<void>>();

  readonly countedAssets = 'SELECT total FROM asset_count';
  private readonly file: string;
  private index: SqliteSearchIndex | null = null;

  /** `dataSource`'s file: its own, or a private one for `sqlite::memory:`. */
  constructor(private readonly dataSource: DataSource) {
    super();
    this.file = dataSource.options.database as string;
  }

  searchIndex(): AssetSearchIndex {
    this.index ??= new SqliteSearchIndex(this.dataSource);
    return this.index;
  }

  isoTimestamp(column: string): string {
    return `strftime('%Y-%m-%dT%H:%M:%fZ', ${column})`;
  }

  dateText(column: string): string {
    return column;
  }

  // Stored as UTC text, `YYYY-MM-DD HH:MM:SS.SSS`.
  utcDay(column: string): string {
    return `substr(${column}, 1, 10)`;
  }

  // A Julian day number: SQLite has no interval type.
  plusDaysOrder(timestamp: string, days: string): string {
    return `(julianday(${timestamp}) + (${days}))`;
  }

  sortKeyText(column: string): string {
    return `CAST(${column} AS TEXT)`;
  }

  // A unary plus: the documented way to keep a term from choosing SQLite's index.
  unindexed(column: string): string {
    return `+${column}`;
  }

  inList(column: string, parameter: string): string {
    return `${column} IN (:...${parameter})`;
  }

  private idListPlaceholders(count: number): string {
    return `IN (${new Array<string>(count).fill('?').join(', ')})`;
  }

  idListValues(ids: readonly string[]): unknown[] {
    return [...ids];
  }

  // BINARY, the default collation.
  bytewise(column: string): string {
    return column;
  }

  // The list made into a JSON array of its items; CAST reads a range's leading digits as its
  // start.
  portListHolds(column: string, port: string): string {
    return `CASE WHEN ${column} GLOB '*[^0-9,-]*' THEN 0 ELSE EXISTS (
      SELECT 1 FROM json_each('["' || replace(${column}, ',', '","') || '"]') p
      WHERE CAST(p.value AS INTEGER) <= :${port}
        AND CAST(substr(p.value, instr(p.value, '-') + 1) AS INTEGER) >= :${port}) END`;
  }

  // The lists are JSONB, which json_object takes as it is (JSON text from a subquery would be
  // taken as a string).
  jsonObject(entries: readonly JsonEntry[], from: string): string {
    const pairs = entries.map(
      ([key, value]) => `'${key}', ${typeof value === 'string' ? value : sqliteList(value)}`,
    );
    return `(SELECT json_object(${pairs.join(', ')}) ${from})`;
  }

  spacedListJson(expression: string): string {
    // A tag may hold a quote or a backslash: escaped for JSON before the spaces become commas.
    const escaped = `replace(replace(${expression}, '\\', '\\\\'), '"', '\\"')`;
    return `json(CASE WHEN ${expression} = '' THEN '[]' ELSE '["' || replace(${escaped}, ' ', '","') || '"]' END)`;
  }

  createdRecordsSelect(objectType: string, table: string, count: number): string {
    return `SELECT ? || printf('%012x', ? + ROW_NUMBER() OVER (ORDER BY x.rowid)), ?, 'create', '${objectType}', x.id,
    ?, NULL, NULL
    FROM ${table} x WHERE x.id ${this.idListPlaceholders(count)}`;
  }

  instanceLocks(): null {
    return null;
  }

  poolStats(): PoolStats | null {
    return null;
  }

  /**
   * In a worker thread (SqliteWriter), on a connection of its own, so that requests served
   * meanwhile neither see the transaction half done nor run inside it (WAL lets them read the
   * last committed state), and so that the rows are written while the main thread goes on
   * with the payload. Lookups go to a read-only connection: it sees the state before the
   * ingestion, which is what the plan is made against.
   */
  unitSql(manager: EntityManager): UnitSql {
    return new SqliteUnitSql(this, manager);
  }

  async inIngestion<T>(work: (sql: IngestSql, lookups: IngestLookups) => Promise<T>): Promise<T> {
    // Lets a write that passed the gate just before the lock was taken finish first.
    await yieldToEventLoop();
    const writer = await SqliteWriter.open(
      this,
      this.file,
      SQLITE_BUSY_TIMEOUT_MS,
      INGESTED_TABLES,
      REBUILT_TABLES,
    );
    // Opened once the write lock is held: no other write can land between the two.
    let lookups: SqliteLookups | null = null;
    try {
      lookups = await SqliteLookups.open(this, this.file, SQLITE_BUSY_TIMEOUT_MS, false);
      const result = await work(writer, lookups);
      await writer.commit();
      const checkpoint = writer.finished;
      this.checkpoints.add(checkpoint);
      void checkpoint.then(() => this.checkpoints.delete(checkpoint));
      return result;
    } catch (error) {
      await writer.rollback().catch(() => undefined);
      throw error;
    } finally {
      await lookups?.close();
      await writer.close();
    }
  }

  /** A read-only connection in a read transaction: WAL keeps its snapshot while others write. */
  async inSnapshot<T>(work: (lookups: IngestLookups) => Promise<T>): Promise<T> {
    const lookups = await SqliteLookups.open(this, this.file, SQLITE_BUSY_TIMEOUT_MS, true);
    try {
      return await work(lookups);
    } finally {
      // The read transaction ends with the connection.
      await lookups.close();
    }
  }

  /** SQLite plans without statistics the service would keep, and its indexes need no tidying. */
  async afterIngestion(): Promise<void> {}

  /**
   * Once the writers' checkpoints are done: the application's shutdown waits for them, so that
   * none still holds the database open once the application says it has closed.
   */
  async settled(): Promise<void> {
    await Promise.all([...this.checkpoints]);
  }
}

/** A list of rows (or of one column's values) as JSONB, `[]` when none. */
function sqliteList({ from, orderBy, fields }: JsonListField): string {
  const element =
    typeof fields === 'string'
      ? fields
      : `json_object(${fields.map(([key, expression]) => `'${key}', ${expression}`).join(', ')})`;
  return `(SELECT jsonb_group_array(${element}) FROM (SELECT * ${from} ORDER BY ${orderBy.join(', ')}) v)`;
}
