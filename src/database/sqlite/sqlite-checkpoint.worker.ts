/* The worker thread of BackgroundCheckpoints (sqlite-checkpoint.ts). */
import Database from 'better-sqlite3';
import { workerData } from 'node:worker_threads';
import type { SqliteCheckpointData } from './sqlite-checkpoint.js';

const { file, timeoutMs } = workerData as SqliteCheckpointData;
const db = new Database(file, { fileMustExist: true, timeout: timeoutMs });
try {
  db.pragma('wal_checkpoint(PASSIVE)');
} finally {
  db.close();
}
