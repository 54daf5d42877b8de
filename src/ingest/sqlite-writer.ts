import { createRequire } from 'node:module';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import {
  inBatches,
  sqliteInsert,
  sqliteTimestamp,
  type IngestSql,
  type InsertColumn,
} from './ingest-sql.js';

const DRIVER = createRequire(import.meta.url).resolve('better-sqlite3');

/** Rows per message: a few milliseconds of work for either thread. */
const ROWS_PER_MESSAGE = 2_000;

/** Insert messages handed over and not yet carried out, at most: the rest wait on this side. */
const MAX_QUEUED_INSERTS = 8;

/** Rows a statement inserts during a bulk load (see SqliteWriter.open). */
const BULK_ROWS_PER_STATEMENT = 10;

type Request =
  | { op: 'insert'; sql: string; bulkSql: string | null; rows: unknown[][] }
  | { op: 'all' | 'run'; sql: string; params: unknown[] }
  | { op: 'commit' | 'rollback' };

type Answer =
  { inserted: true } | { result?: unknown } | { error: { message: string; code?: string } };

/*
 * Runs in the worker, started from this source text like the checkpoint's (the tests run the
 * TypeScript sources). It opens the connection, takes the write lock and then carries out the
 * requests in the order they come. An insert is acknowledged once carried out, and a failure
 * of it is kept and given as the answer to the next request that has one (the transaction is
 * rolled back then).
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
let db;
let failure = null;
// Decided at the first insert: the dropped indexes of a bulk load, or false.
let bulk = null;
const statements = new Map();
const prepare = (sql) => {
  let statement = statements.get(sql);
  if (!statement) statements.set(sql, (statement = db.prepare(sql)));
  return statement;
};
// At the first insert, so that it sees the transaction's own state (a replace has emptied the
// tables by then). DDL is transactional: a rollback brings the indexes back as they were.
const startBulkLoad = () => {
  const tables = workerData.bulkLoadTables;
  if (tables.length === 0) return false;
  for (const table of tables) {
    if (db.prepare('SELECT 1 FROM "' + table + '" LIMIT 1').get()) return false;
  }
  // Those a constraint made (sql is null) stay: the primary keys, and the upserts' conflicts.
  // So do unique ones: a repeated value must fail at its row, not at the commit.
  const indexes = db
    .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND sql NOT LIKE 'CREATE UNIQUE%' AND tbl_name IN (" + tables.map(() => '?').join(', ') + ')')
    .all(...tables);
  for (const index of indexes) db.exec('DROP INDEX "' + index.name + '"');
  return indexes;
};
const insert = ({ sql, bulkSql, rows }) => {
  const single = prepare(sql);
  let next = 0;
  if (bulk && bulkSql && rows.length > 0) {
    // Without indexes to keep up, the calls into the driver are most of an insert's cost.
    const statement = prepare(bulkSql);
    const per = ${BULK_ROWS_PER_STATEMENT};
    const values = new Array(per * rows[0].length);
    for (; next + per <= rows.length; next += per) {
      let k = 0;
      for (let i = next; i < next + per; i++) for (const value of rows[i]) values[k++] = value;
      statement.run(values);
    }
  }
  for (; next < rows.length; next++) single.run(rows[next]);
};
const fail = (error) => ({ error: { message: String(error && error.message), code: error && error.code } });
try {
  db = new Database(workerData.file, { fileMustExist: true, timeout: workerData.timeout });
  db.pragma('foreign_keys = ON');
  // The checkpoint after a large commit runs in a worker of its own (checkpointInBackground).
  db.pragma('wal_autocheckpoint = 0');
  db.exec('BEGIN IMMEDIATE');
  parentPort.postMessage({ result: true });
} catch (error) {
  failure = error;
  parentPort.postMessage(fail(error));
}
parentPort.on('message', (request) => {
  if (request.op === 'insert') {
    if (!failure) {
      try {
        if (bulk === null) bulk = startBulkLoad();
        insert(request);
      } catch (error) {
        failure = error;
      }
    }
    return parentPort.postMessage({ inserted: true });
  }
  if (request.op === 'rollback') {
    try {
      if (db && db.inTransaction) db.exec('ROLLBACK');
      parentPort.postMessage({ result: true });
    } catch (error) {
      parentPort.postMessage(fail(error));
    }
    return;
  }
  if (failure) return parentPort.postMessage(fail(failure));
  try {
    let result = true;
    if (request.op === 'all') result = prepare(request.sql).all(...request.params);
    else if (request.op === 'run') result = prepare(request.sql).run(...request.params).changes;
    else if (request.op === 'commit') {
      // Built from the rows in one pass each, in the same transaction.
      for (const index of bulk || []) db.exec(index.sql);
      db.exec('COMMIT');
    }
    parentPort.postMessage({ result });
  } catch (error) {
    failure = error;
    parentPort.postMessage(fail(error));
  }
});
`;

function toError(answer: { error: { message: string; code?: string } }): Error {
  return Object.assign(new Error(answer.error.message), { code: answer.error.code });
}

/**
 * An ingestion's SQLite transaction, on a connection of its own in a worker thread: the rows
 * are written there while the main thread goes on reading, checking and planning the rest of
 * the payload (and answering other requests). Requests are carried out in order; `insert`
 * hands its rows over and returns, and a failure of its statements is thrown by the next
 * request that waits for an answer (at the latest, `commit`).
 */
export class SqliteWriter implements IngestSql {
  readonly dialect = 'sqlite';
  readonly maxParams = 30_000;
  readonly forUpdate = '';
  private readonly waiting: { resolve(value: unknown): void; reject(error: Error): void }[] = [];
  private failure: Error | null = null;
  private queuedInserts = 0;
  private insertDone: (() => void) | null = null;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (answer: Answer) => {
      if ('inserted' in answer) {
        this.queuedInserts--;
        this.insertDone?.();
        this.insertDone = null;
        return;
      }
      const next = this.waiting.shift();
      if ('error' in answer) next?.reject(toError(answer));
      else next?.resolve(answer.result);
    });
    worker.on('error', (error) => this.fail(error));
    worker.on('exit', (code) =>
      this.fail(new Error(`the SQLite writer stopped with code ${code}`)),
    );
  }

  /**
   * Starts the worker, which opens `file` and begins the transaction (BEGIN IMMEDIATE).
   *
   * When every one of `bulkLoadTables` is empty at the first insert, the transaction is a bulk
   * load, as when restoring a dump: their indexes (but those of their keys and unique
   * constraints) are dropped, the rows go in several to a statement, and the indexes are built
   * again just before the commit. A first import of 100,000 assets takes about a fifth less
   * time (bench/README). Readers keep seeing the last committed state, indexes included.
   */
  static async open(
    file: string,
    timeoutMs: number,
    bulkLoadTables: string[] = [],
  ): Promise<SqliteWriter> {
    const writer = new SqliteWriter(
      new Worker(WORKER_SOURCE, {
        eval: true,
        workerData: { driver: DRIVER, file, timeout: timeoutMs, bulkLoadTables },
        // Its rows live for one statement each: a small young generation is all it needs.
        resourceLimits: { maxYoungGenerationSizeMb: 4 },
      }),
    );
    try {
      await writer.answer();
    } catch (error) {
      writer.close();
      throw error;
    }
    return writer;
  }

  async all<T>(sql: string, params: unknown[] = []): Promise<T[]> {
    return (await this.request({ op: 'all', sql, params })) as T[];
  }

  async run(sql: string, params: unknown[] = []): Promise<number> {
    return (await this.request({ op: 'run', sql, params })) as number;
  }

  timestamp(date: Date): string {
    return sqliteTimestamp(date);
  }

  pause(): Promise<void> {
    return yieldToEventLoop();
  }

  async insert(
    table: string,
    columns: InsertColumn[],
    rows: Iterable<unknown[]>,
    onConflict = '',
  ): Promise<number> {
    const sql = sqliteInsert(table, columns, onConflict);
    // Upserts only match stored rows, which a bulk load has none of.
    const bulkSql = onConflict
      ? null
      : sqliteInsert(table, columns, onConflict, BULK_ROWS_PER_STATEMENT);
    return inBatches(rows, ROWS_PER_MESSAGE, (part) => this.postInsert(sql, bulkSql, part));
  }

  async commit(): Promise<void> {
    await this.request({ op: 'commit' });
  }

  async rollback(): Promise<void> {
    await this.request({ op: 'rollback' });
  }

  /** Stops the worker; its connection closes with it. */
  close(): void {
    this.worker.removeAllListeners();
    // Errors and exit are no longer of interest, but must not go unhandled.
    this.worker.on('error', () => undefined);
    void this.worker.terminate();
  }

  /** Hands rows over, once the worker has few enough waiting; gives the event loop a turn. */
  private async postInsert(sql: string, bulkSql: string | null, rows: unknown[][]): Promise<void> {
    while (this.queuedInserts >= MAX_QUEUED_INSERTS && !this.failure) {
      await new Promise<void>((resolve) => (this.insertDone = resolve));
    }
    this.post({ op: 'insert', sql, bulkSql, rows });
    this.queuedInserts++;
    await this.pause();
  }

  private post(request: Request): void {
    if (this.failure) throw this.failure;
    this.worker.postMessage(request);
  }

  private request(request: Request): Promise<unknown> {
    this.post(request);
    return this.answer();
  }

  private answer(): Promise<unknown> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const waiting of this.waiting.splice(0)) waiting.reject(this.failure);
    this.insertDone?.();
    this.insertDone = null;
  }
}
