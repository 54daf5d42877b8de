import { Logger } from '@nestjs/common';
import { Worker } from 'node:worker_threads';
import { workerFile } from '../../common/workers/worker-file.js';

const WORKER = workerFile(import.meta.url, 'sqlite-checkpoint.worker');

/** What the checkpoint's worker (sqlite-checkpoint.worker.ts) is given. */
export interface SqliteCheckpointData {
  file: string;
  timeoutMs: number;
}

const logger = new Logger('SQLite');

/**
 * Copies the write-ahead log into the database file on a connection in a worker thread. After
 * a large transaction the log holds a hundred megabytes; the checkpoint SQLite would otherwise
 * run as part of the commit takes a few hundred milliseconds, in which the event loop (health
 * probes included) would wait. PASSIVE: readers and writers carry on meanwhile.
 *
 * The checkpoints still running are awaited by `settled()` when the application shuts down, so
 * that none still holds the database open once the application says it has closed.
 */
export class BackgroundCheckpoints {
  private readonly running = new Set<Promise<void>>();

  start(file: string, timeoutMs: number): void {
    const workerData: SqliteCheckpointData = { file, timeoutMs };
    const worker = new Worker(WORKER, { workerData });
    // Not a reason to keep the process up: the log is checkpointed again by the next write.
    worker.unref();
    worker.on('error', (error) => logger.warn(`background checkpoint failed: ${error.message}`));
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    this.running.add(exited);
    void exited.then(() => this.running.delete(exited));
  }

  async settled(): Promise<void> {
    await Promise.all([...this.running]);
  }
}
