import { Logger } from '@nestjs/common';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

const DRIVER = createRequire(import.meta.url).resolve('better-sqlite3');

const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true, timeout: workerData.timeout });
try {
  db.pragma('wal_checkpoint(PASSIVE)');
} finally {
  db.close();
}
`;

const logger = new Logger('SQLite');

/**
 * Copies the write-ahead log into the database file on a connection in a worker thread. After
 * a large transaction the log holds a hundred megabytes; the checkpoint SQLite would otherwise
 * run as part of the commit takes a few hundred milliseconds, in which the event loop (health
 * probes included) would wait. PASSIVE: readers and writers carry on meanwhile.
 */
export function checkpointInBackground(file: string, timeoutMs: number): void {
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { driver: DRIVER, file, timeout: timeoutMs },
  });
  // Not a reason to keep the process up: the log is checkpointed again by the next write.
  worker.unref();
  worker.on('error', (error) => logger.warn(`background checkpoint failed: ${error.message}`));
}
