import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import {
  inBatches,
  SQLITE_MAX_PARAMS,
  sqliteInsert,
  sqliteTimestamp,
  type IngestSql,
  type InsertColumn,
} from '../ingest-sql.js';
import {
  BULK_REBUILD_MAX_ROWS,
  BULK_ROWS_PER_STATEMENT,
  MAX_QUEUED_INSERTS,
  SQLITE_ROWS_PER_MESSAGE,
} from '../ingest-tuning.js';
import type { Dialect } from '../dialect/dialect.js';
import type {
  SqliteWriterAnswer,
  SqliteWriterData,
  SqliteWriterRequest,
} from './sqlite-writer.messages.js';
import { OrderedAnswers } from '../../common/workers/ordered-answers.js';
import { workerFile } from '../../common/workers/worker-file.js';

const WORKER = workerFile(import.meta.url, 'sqlite-writer.worker');

/**
 * An ingestion's SQLite transaction, on a connection of its own in a worker thread: the rows
 * are written there while the main thread goes on reading, checking and planning the rest of
 * the payload (and answering other requests). Requests are carried out in order; `insert`
 * hands its rows over and returns, and a failure of its statements is thrown by the next
 * request that waits for an answer (at the latest, `commit`).
 */
export class SqliteWriter implements IngestSql {
  readonly maxParams = SQLITE_MAX_PARAMS;
  readonly idOrder = 'id';
  readonly readAhead = false;
  /**
   * After a commit: once the worker has checkpointed the log and exited (close() leaves it to
   * that).
   */
  readonly finished: Promise<void>;
  private readonly answers: OrderedAnswers;
  private queuedInserts = 0;
  private insertDone: (() => void) | null = null;
  private committed = false;

  private constructor(
    readonly dialect: Dialect,
    private readonly worker: Worker,
  ) {
    this.finished = new Promise((resolve) => worker.once('exit', () => resolve()));
    const inserted = (message: unknown) => {
      if (!('inserted' in (message as SqliteWriterAnswer))) return false;
      this.queuedInserts--;
      this.releaseInsert();
      return true;
    };
    // A failure also releases an insert waiting for room.
    this.answers = new OrderedAnswers(worker, 'SQLite writer', inserted, () =>
      this.releaseInsert(),
    );
  }

  /**
   * Starts the worker, which opens `file` and begins the transaction (BEGIN IMMEDIATE).
   *
   * When every one of `bulkLoadTables` is empty at the first insert, the transaction is a bulk
   * load, as when restoring a dump: their indexes (but those of their keys and unique
   * constraints) are dropped, the rows go in several to a statement, and the indexes are built
   * again just before the commit: building an index once costs less than keeping it up to
   * date row by row. Readers keep seeing the last committed state, indexes included.
   */
  static async open(
    dialect: Dialect,
    file: string,
    timeoutMs: number,
    bulkLoadTables: string[] = [],
    rebuiltTables: string[] = [],
  ): Promise<SqliteWriter> {
    const workerData: SqliteWriterData = {
      file,
      timeoutMs,
      bulkLoadTables,
      rebuiltTables,
      rebuildMaxRows: BULK_REBUILD_MAX_ROWS,
      bulkRowsPerStatement: BULK_ROWS_PER_STATEMENT,
    };
    const writer = new SqliteWriter(
      dialect,
      new Worker(WORKER, {
        workerData,
        // Its rows live for one statement each: a small young generation is all it needs.
        resourceLimits: { maxYoungGenerationSizeMb: 4 },
      }),
    );
    try {
      await writer.answers.next();
    } catch (error) {
      await writer.close();
      throw error;
    }
    return writer;
  }

  async all<T>(sql: string, params: unknown[] = []): Promise<T[]> {
    return (await this.request({ op: 'all', sql, params })) as T[];
  }

  async arrays(sql: string, params: unknown[] = []): Promise<unknown[][]> {
    return (await this.request({ op: 'arrays', sql, params })) as unknown[][];
  }

  async run(sql: string, params: unknown[] = []): Promise<number> {
    return (await this.request({ op: 'run', sql, params })) as number;
  }

  /**
   * Counted with the inserts waiting: the worker carries it out in turn while the main thread
   * goes on planning (awaiting its answer left either thread idle while the other worked).
   */
  async runQueued(sql: string, params: unknown[]): Promise<void> {
    await this.postQueued({ op: 'queued', sql, params });
  }

  timestamp(date: Date): string {
    return sqliteTimestamp(date);
  }

  letOtherRequestsRun(): Promise<void> {
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
    return inBatches(rows, SQLITE_ROWS_PER_MESSAGE, (part) =>
      this.postQueued({ op: 'insert', table, sql, bulkSql, rows: part }),
    );
  }

  /** Commits; the worker then checkpoints the log and exits by itself (`finished`). */
  async commit(): Promise<void> {
    await this.request({ op: 'commit' });
    this.committed = true;
  }

  async rollback(): Promise<void> {
    await this.request({ op: 'rollback' });
  }

  /**
   * Stops the worker; its connection closes with it. Resolves once the thread has exited. A
   * committed one is left to finish its checkpoint: resolves at once.
   */
  async close(): Promise<void> {
    if (this.committed) return;
    this.worker.removeAllListeners();
    // Errors and exit are no longer of interest, but must not go unhandled.
    this.worker.on('error', () => undefined);
    await this.worker.terminate();
  }

  /**
   * Hands a request acknowledged without an answer over, once the worker has few enough
   * waiting; gives the event loop a turn.
   */
  private async postQueued(
    request: Extract<SqliteWriterRequest, { op: 'insert' | 'queued' }>,
  ): Promise<void> {
    while (this.queuedInserts >= MAX_QUEUED_INSERTS && !this.answers.failure) {
      await new Promise<void>((resolve) => (this.insertDone = resolve));
    }
    this.post(request);
    this.queuedInserts++;
    await this.letOtherRequestsRun();
  }

  private post(request: SqliteWriterRequest): void {
    if (this.answers.failure) throw this.answers.failure;
    this.worker.postMessage(request);
  }

  private request(request: SqliteWriterRequest): Promise<unknown> {
    this.post(request);
    return this.answers.next();
  }

  private releaseInsert(): void {
    this.insertDone?.();
    this.insertDone = null;
  }
}
