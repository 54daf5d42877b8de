/**
 * The database as the match and apply stages see it: statements written once, with `?`
 * placeholders, for SQLite and PostgreSQL alike.
 */

import type { Dialect } from './dialect/dialect.js';
import { IDS_PER_STATEMENT } from './ingest-tuning.js';

/** A column written by a bulk insert, with its PostgreSQL type (for unnest). */
export interface InsertColumn {
  name: string;
  type: 'text' | 'integer' | 'double precision' | 'date' | 'timestamptz';
  /**
   * Long text full of quotes (JSON): PostgreSQL is sent its values as one JSON array rather
   * than as a text array, which pg escapes with two regular expressions a value, many times
   * slower than JSON.stringify for such text.
   */
  long?: true;
}

/**
 * The tables an ingestion writes: into all of them empty, it is a bulk load on SQLite
 * (SqliteWriter.open); PostgreSQL refreshes their planner statistics after it.
 */
export const INGESTED_TABLES = [
  'assets',
  'asset_sources',
  'asset_identifiers',
  'findings',
  'finding_sources',
  'finding_periods',
  'services',
  'relations',
];

/** Most parameters one SQLite statement may bind. */
export const SQLITE_MAX_PARAMS = 30_000;

/** Reads of the stored state, with `?` placeholders, on either database. */
export interface IngestLookups {
  /** The database's dialect: the few statements that build JSON or take id lists differ. */
  readonly dialect: Dialect;
  /** Most parameters one statement may bind. */
  readonly maxParams: number;
  /** `ORDER BY` of ids in JavaScript's order (byte order), whatever the database's collation. */
  readonly idOrder: string;
  /**
   * Whether a slice's lookups are best sent before the slice before it is planned: where they
   * are answered beside this thread (a database server, SQLite's lookups worker). Not where
   * they would run on this thread: there is nothing to overlap, and the slice read early would
   * only be held longer.
   */
  readonly readAhead: boolean;
  all<T>(sql: string, params?: unknown[]): Promise<T[]>;
  /**
   * As `all`, each row an array of its columns' values in the SELECT's order: for lookups of
   * many rows, where making an object of each row by its column names costs more than the read.
   */
  arrays(sql: string, params?: unknown[]): Promise<unknown[][]>;
}

/** `items` in arrays of `size` (the last one shorter). */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += size) {
    result.push(items.slice(start, start + size));
  }
  return result;
}

/** The `?, ?, ...` of an `IN (...)` list of `values`. */
export const placeholders = (values: readonly unknown[]) => values.map(() => '?').join(', ');

/** How many ids one `IN (...)` lookup or delete binds on `db`. */
export const idsPerStatement = (db: IngestLookups) => Math.min(IDS_PER_STATEMENT, db.maxParams);

/**
 * `select` (a statement without its WHERE) of the rows whose `column` is in `values`, one
 * statement per idsPerStatement values; `orderBy` orders each statement's rows.
 */
export async function selectIn<T>(
  db: IngestLookups,
  select: string,
  column: string,
  values: readonly string[],
  orderBy = '',
): Promise<T[]> {
  const rows: T[] = [];
  for (const part of chunks(values, idsPerStatement(db))) {
    const found = await db.all<T>(
      `${select} WHERE ${column} IN (${placeholders(part)}) ${orderBy}`,
      part,
    );
    // One by one: spread into push(), a hub's many relations would overflow the call stack.
    for (const row of found) rows.push(row);
  }
  return rows;
}

/** selectIn, each row an array of its columns' values (IngestLookups.arrays). */
export async function selectArraysIn(
  db: IngestLookups,
  select: string,
  column: string,
  values: readonly string[],
  orderBy = '',
): Promise<unknown[][]> {
  const rows: unknown[][] = [];
  for (const part of chunks(values, idsPerStatement(db))) {
    const found = await db.arrays(
      `${select} WHERE ${column} IN (${placeholders(part)}) ${orderBy}`,
      part,
    );
    for (const row of found) rows.push(row);
  }
  return rows;
}

/**
 * The few SQL operations an ingestion needs, on its own connection and transaction. Statements
 * are written once, with `?` placeholders, and run on either database.
 */
export interface IngestSql extends IngestLookups {
  /** Runs a write; answers how many rows it changed. */
  run(sql: string, params?: unknown[]): Promise<number>;
  /**
   * Runs a write whose answer is not needed, in order with the others. Where the rows are
   * written by another thread (SQLite), it is handed over as an insert is and the caller goes
   * on: a failure is thrown by the next request that waits for an answer.
   */
  runQueued(sql: string, params: unknown[]): Promise<void>;
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

/** IngestSql in a route's write unit: its queued statements carried out by `settle`. */
export interface UnitSql extends IngestSql {
  /** Once every queued statement is carried out; throws the first one's failure, if any. */
  settle(): Promise<void>;
}

export function insertInto(table: string, columns: readonly InsertColumn[]): string {
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
