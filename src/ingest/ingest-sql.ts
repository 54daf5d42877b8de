import type BetterSqlite3 from 'better-sqlite3';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { QueryRunner } from 'typeorm';
import { POSTGRES_ROWS_PER_INSERT } from './ingest-tuning.js';

/** A column written by a bulk insert, with its PostgreSQL type (for unnest). */
export interface InsertColumn {
  name: string;
  type: 'text' | 'integer' | 'double precision' | 'date' | 'timestamptz';
}

/** Most parameters one SQLite statement may bind. */
export const SQLITE_MAX_PARAMS = 30_000;

/** Reads of the stored state, with `?` placeholders, on either database. */
export interface IngestLookups {
  /** Most parameters one statement may bind. */
  readonly maxParams: number;
  all<T>(sql: string, params?: unknown[]): Promise<T[]>;
}

/**
 * The few SQL operations an ingestion needs, on its own connection and transaction. Statements
 * are written once, with `?` placeholders, and run on either database.
 */
export interface IngestSql extends IngestLookups {
  /**
   * The clause that makes a SELECT lock its rows until the commit against other writers, or ''
   * where the transaction already excludes every other writer (SQLite).
   */
  readonly forUpdate: string;
  /** Runs a write; answers how many rows it changed. */
  run(sql: string, params?: unknown[]): Promise<number>;
  /** A timestamp as the database stores it. */
  timestamp(date: Date): unknown;
  /** Gives other requests a turn of the event loop, where the connection allows it. */
  letOtherRequestsRun(): Promise<void>;
  /**
   * Inserts rows (values in column order) in as few statements as the database allows; answers
   * how many. Rows are taken from `rows` as they are written, so that they need not all be held
   * at once: a hundred thousand long-lived arrays cost more in garbage collection than in making.
   */
  insert(
    table: string,
    columns: InsertColumn[],
    rows: Iterable<unknown[]>,
    onConflict?: string,
  ): Promise<number>;
}

function insertInto(table: string, columns: InsertColumn[]): string {
  return `INSERT INTO ${table} (${columns.map((column) => column.name).join(', ')})`;
}

/** The statement that inserts `rows` rows (one: better-sqlite3's fastest path, most often). */
export function sqliteInsert(
  table: string,
  columns: InsertColumn[],
  onConflict: string,
  rows = 1,
): string {
  const row = `(${columns.map(() => '?').join(', ')})`;
  return `${insertInto(table, columns)} VALUES ${Array<string>(rows).fill(row).join(', ')} ${onConflict}`;
}

/** Hands `rows` to `write` in arrays of `size` (the last one shorter); answers how many. */
export async function inBatches(
  rows: Iterable<unknown[]>,
  size: number,
  write: (batch: unknown[][]) => Promise<void>,
): Promise<number> {
  let count = 0;
  let batch: unknown[][] = [];
  for (const row of rows) {
    batch.push(row);
    if (batch.length === size) {
      await write(batch);
      count += batch.length;
      batch = [];
    }
  }
  if (batch.length > 0) await write(batch);
  return count + batch.length;
}

/** A timestamp as TypeORM writes SQLite datetimes: UTC, milliseconds, ' ' for 'T', no 'Z'. */
export function sqliteTimestamp(date: Date): string {
  return date.toISOString().replace('T', ' ').replace('Z', '');
}

/**
 * Lookups on a read-only SQLite connection beside the ingestion's writer: it shows the state
 * before the ingestion, which is what the plan is made against.
 */
export class SqliteLookups implements IngestLookups {
  readonly maxParams = SQLITE_MAX_PARAMS;
  private readonly statements = new Map<string, BetterSqlite3.Statement>();

  constructor(private readonly db: BetterSqlite3.Database) {}

  // better-sqlite3 is synchronous: a turn of the event loop after each statement keeps the
  // service answering (health probes included) while a large ingestion runs.
  async all<T>(sql: string, params: unknown[] = []): Promise<T[]> {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    const rows = statement.all(...params) as T[];
    await yieldToEventLoop();
    return rows;
  }
}

export class PostgresIngestSql implements IngestSql {
  readonly maxParams = 60_000;
  readonly forUpdate = 'FOR UPDATE';

  constructor(private readonly runner: QueryRunner) {}

  async all<T>(sql: string, params: unknown[] = []): Promise<T[]> {
    return (await this.runner.query(PostgresIngestSql.numbered(sql), params)) as T[];
  }

  async run(sql: string, params: unknown[] = []): Promise<number> {
    const result = await this.runner.query(PostgresIngestSql.numbered(sql), params, true);
    return result.affected ?? 0;
  }

  timestamp(date: Date): Date {
    return date;
  }

  letOtherRequestsRun(): Promise<void> {
    return yieldToEventLoop();
  }

  /**
   * One array parameter per column, expanded by unnest: a fixed, short statement however many
   * rows it carries, and several times faster than multi-row VALUES.
   */
  async insert(
    table: string,
    columns: InsertColumn[],
    rows: Iterable<unknown[]>,
    onConflict = '',
  ): Promise<number> {
    const arrays = columns.map((column, index) => `$${index + 1}::${column.type}[]`).join(', ');
    const sql = `${insertInto(table, columns)} SELECT * FROM unnest(${arrays}) ${onConflict}`;
    return inBatches(rows, POSTGRES_ROWS_PER_INSERT, async (part) => {
      await this.runner.query(
        sql,
        columns.map((_column, index) => part.map((row) => row[index])),
      );
    });
  }

  private static numbered(sql: string): string {
    let position = 0;
    return sql.replace(/\?/g, () => `$${++position}`);
  }
}
