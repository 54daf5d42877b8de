import { Worker } from 'node:worker_threads';
import { terminator } from '../../common/workers/worker-messages.js';
import { workerFile } from '../../common/workers/worker-file.js';
import type { Dialect } from '../dialect/dialect.js';
import { SQLITE_MAX_PARAMS, type IngestLookups } from '../ingest-sql.js';
import type {
  SqliteLookupsAnswer,
  SqliteLookupsData,
  SqliteLookupsRequest,
} from './sqlite-lookups.messages.js';

const WORKER = workerFile(import.meta.url, 'sqlite-lookups.worker');

/**
 * An ingestion's lookups on SQLite, on a read-only connection in a worker thread of its own: it
 * shows the state before the ingestion, which is what the plan is made against. better-sqlite3
 * answers on the thread that asks, so there the lookups (the standing findings' texts above
 * all) held the main thread while the writer thread waited for the next plan; in a worker they
 * run beside it, a slice ahead (readAhead), and the main thread only takes in their rows.
 * Requests are answered in the order they are sent.
 */
export class SqliteLookups implements IngestLookups {
  readonly maxParams = SQLITE_MAX_PARAMS;
  readonly idOrder = 'id';
  readonly readAhead = true;
  /** Those waiting for an answer, in the order of their requests. */
  private readonly waiting: { resolve(value: unknown): void; reject(error: Error): void }[] = [];
  private failure: Error | null = null;
  readonly close: () => Promise<void>;

  private constructor(
    readonly dialect: Dialect,
    private readonly worker: Worker,
  ) {
    this.close = terminator(worker);
    worker.on('message', (answer: SqliteLookupsAnswer) => {
      const next = this.waiting.shift();
      if ('error' in answer)
        next?.reject(Object.assign(new Error(answer.error.message), { code: answer.error.code }));
      else next?.resolve(answer.result);
    });
    worker.on('error', (error) => this.fail(error));
    worker.on('exit', (code) =>
      this.fail(new Error(`the SQLite lookups stopped with code ${code}`)),
    );
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
      await lookups.answer();
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
    if (this.failure) return Promise.reject(this.failure);
    this.worker.postMessage(request);
    return this.answer();
  }

  private answer(): Promise<unknown> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const waiting of this.waiting.splice(0)) waiting.reject(this.failure);
  }
}
