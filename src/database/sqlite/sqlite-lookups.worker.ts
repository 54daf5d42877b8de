/*
 * The worker thread of SqliteLookups (sqlite-lookups.ts): a read-only connection that answers
 * the lookups in the order they come, each with its rows or its error. Its first answer says
 * whether the connection opened.
 */
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { errorAnswer } from '../../common/workers/worker-messages.js';
import type { WorkerAnswer } from '../../common/workers/ordered-answers.js';
import type { SqliteLookupsData, SqliteLookupsRequest } from './sqlite-lookups.messages.js';

const { file, timeoutMs, snapshot } = workerData as SqliteLookupsData;
const port = parentPort!;
const post = (answer: WorkerAnswer) => port.postMessage(answer);

let db: Database.Database | null = null;
const statements = new Map<string, Database.Statement>();
/** Statements in raw mode (rows as arrays): a statement's mode is its own. */
const arrayStatements = new Map<string, Database.Statement>();

function prepare(sql: string, arrays: boolean): Database.Statement {
  const cache = arrays ? arrayStatements : statements;
  let statement = cache.get(sql);
  if (!statement) {
    statement = db!.prepare(sql);
    if (arrays) statement.raw(true);
    cache.set(sql, statement);
  }
  return statement;
}

try {
  db = new Database(file, { readonly: true, fileMustExist: true, timeout: timeoutMs });
  // A deferred transaction: its snapshot is taken at the first read.
  if (snapshot) db.exec('BEGIN');
  post({ result: true });
} catch (error) {
  post(errorAnswer(error));
}
port.on('message', ({ op, sql, params }: SqliteLookupsRequest) => {
  try {
    post({ result: prepare(sql, op === 'arrays').all(...params) });
  } catch (error) {
    post(errorAnswer(error));
  }
});
