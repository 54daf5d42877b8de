import { Worker } from 'node:worker_threads';
import { OrderedAnswers } from '../../common/workers/ordered-answers.js';
import { terminator } from '../../common/workers/worker-messages.js';
import { workerFile } from '../../common/workers/worker-file.js';
import type { Dialect } from '../dialect/dialect.js';
import { SQLITE_MAX_PARAMS, type IngestLookups } from '../ingest-sql.js';
import type { SqliteLookupsData, SqliteLookupsRequest } from './sqlite-lookups.messages.js';

const WORKER = workerFile(import.meta.url, 'sqlite-lookups.worker');

/**
 * An ingestion's lookups on SQLite, on a read-only connection in a worker thread of its own: it
 * shows the state before the ingestion, which is what the plan is made against. better-sqlite3
 * answers on the thread that asks: on the main thread, the lookups (the standing findings'
 * texts above all) held it while the writer thread waited for the next plan. In a worker they
 * run beside it, a slice ahead (readAhead), and the main thread only takes in their rows.
 * Requests are answered in the order they are sent.
 */
export class SqliteLookups implements IngestLookups {
  readonly maxParams = SQLITE_MAX_PARAMS;
  readonly idOrder = 'id';
  readonly readAhead = true;
  /** Stops the worker, its connection with it; resolves once it has exited. */
  readonly close: () => Promise<void>;
  private readonly answers: OrderedAnswers;

  private constructor(
    readonly dialect: Dialect,
    private readonly worker: Worker,
  ) {
    this.close = terminator(worker);
    this.answers = new OrderedAnswers(worker, 'SQLite lookups');
  }

  /** Starts the worker on `file` (`snapshot`: in one read transaction); once it has opened it. */
  static async open(
    dialect: Dialect,
    file: string,
    timeoutMs: number,
    snapshot: boolean,
  ): Promise<SqliteLookups> {
    const workerData: SqliteLookupsData = { file, timeoutMs, snapshot };
    const lookups = new SqliteLookups(dialect, new Worker(WORKER, { workerData }));
    try {
      await lookups.answers.next();
    } catch (error) {
      await lookups.close();
      throw error;
    }
    return lookups;
  }

  async all<T>(sql: string, params: unknown[] = []): Promise<T[]> {
    return (await this.request({ op: 'all', sql, params })) as T[];
  }

  async arrays(sql: string, params: unknown[] = []): Promise<unknown[][]> {
    return (await this.request({ op: 'arrays', sql, params })) as unknown[][];
  }

  private request(request: SqliteLookupsRequest): Promise<unknown> {
    if (this.answers.failure) return Promise.reject(this.answers.failure);
    this.worker.postMessage(request);
    return this.answers.next();
  }
}
