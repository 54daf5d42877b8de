/*
 * The worker thread of SqliteWriter (sqlite-writer.ts). It opens the connection, takes the
 * write lock and then carries out the requests in the order they come. An insert is
 * acknowledged once carried out, and a failure of it is kept and given as the answer to the
 * next request that has one (the transaction is rolled back then). After the commit it
 * checkpoints the log and exits.
 */
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { errorAnswer } from '../../common/workers/worker-messages.js';
import type {
  SqliteWriterAnswer,
  SqliteWriterData,
  SqliteWriterRequest,
} from './sqlite-writer.messages.js';

const { file, timeoutMs, bulkLoadTables, bulkRowsPerStatement, rebuiltTables, rebuildMaxRows } =
  workerData as SqliteWriterData;
const port = parentPort!;
const post = (answer: SqliteWriterAnswer) => port.postMessage(answer);

interface IndexRow {
  name: string;
  sql: string;
}

let db: Database.Database | null = null;
let failure: unknown = null;
/** Decided at the first insert: the indexes a bulk load dropped, or false. */
let bulk: IndexRow[] | false | null = null;
const statements = new Map<string, Database.Statement>();
/** Statements in raw mode (rows as arrays): a statement's mode is its own. */
const arrayStatements = new Map<string, Database.Statement>();

function prepare(sql: string): Database.Statement {
  let statement = statements.get(sql);
  if (!statement) statements.set(sql, (statement = db!.prepare(sql)));
  return statement;
}

function prepareArrays(sql: string): Database.Statement {
  let statement = arrayStatements.get(sql);
  if (!statement) arrayStatements.set(sql, (statement = db!.prepare(sql).raw(true)));
  return statement;
}

/**
 * At the first insert, so that it sees the transaction's own state (a replace has emptied the
 * tables by then). DDL is transactional: a rollback brings the indexes back as they were.
 */
function startBulkLoad(connection: Database.Database): IndexRow[] | false {
  if (bulkLoadTables.length === 0) return false;
  for (const table of bulkLoadTables) {
    if (connection.prepare(`SELECT 1 FROM "${table}" LIMIT 1`).get()) return false;
  }
  // Those a constraint made (sql is null) stay: the primary keys, and the upserts' conflicts.
  // So do unique ones: a repeated value must fail at its row, not at the commit.
  const small = rebuiltTables.filter(
    (table) =>
      (
        connection
          .prepare(`SELECT COUNT(*) AS n FROM (SELECT 1 FROM "${table}" LIMIT ?)`)
          .get(rebuildMaxRows) as { n: number }
      ).n < rebuildMaxRows,
  );
  const tables = [...bulkLoadTables, ...small];
  const indexes = connection
    .prepare(
      `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND sql NOT LIKE 'CREATE UNIQUE%' AND tbl_name IN (${tables.map(() => '?').join(', ')})`,
    )
    .all(...tables) as IndexRow[];
  for (const index of indexes) connection.exec(`DROP INDEX "${index.name}"`);
  return indexes;
}

function insert({
  sql,
  bulkSql,
  rows,
}: {
  sql: string;
  bulkSql: string | null;
  rows: unknown[][];
}) {
  const single = prepare(sql);
  let next = 0;
  if (bulk && bulkSql && rows.length > 0) {
    // Without indexes to keep up, the calls into the driver are most of an insert's cost.
    const statement = prepare(bulkSql);
    const per = bulkRowsPerStatement;
    const values = new Array<unknown>(per * rows[0].length);
    for (; next + per <= rows.length; next += per) {
      let k = 0;
      for (let i = next; i < next + per; i++) for (const value of rows[i]) values[k++] = value;
      statement.run(values);
    }
  }
  for (; next < rows.length; next++) single.run(rows[next]);
}

/**
 * A request acknowledged without its answer (an insert, a queued statement): none runs after a
 * failure, which is kept for the next request that waits for an answer.
 */
function acknowledge(work: () => void): void {
  if (!failure) {
    try {
      work();
    } catch (error) {
      failure = error;
    }
  }
  post({ inserted: true });
}

function carryOut(request: SqliteWriterRequest): void {
  if (request.op === 'insert') {
    return acknowledge(() => {
      // Decided at the first insert into an ingested table: a replace writes the change records
      // of what it deletes before the rows it loads.
      if (bulk === null && bulkLoadTables.includes(request.table)) bulk = startBulkLoad(db!);
      insert(request);
    });
  }
  if (request.op === 'queued') {
    return acknowledge(() => prepare(request.sql).run(...request.params));
  }
  if (request.op === 'rollback') {
    try {
      if (db?.inTransaction) db.exec('ROLLBACK');
      post({ result: true });
    } catch (error) {
      post(errorAnswer(error));
    }
    return;
  }
  if (failure) return post(errorAnswer(failure));
  try {
    let result: unknown = true;
    if (request.op === 'all') result = prepare(request.sql).all(...request.params);
    else if (request.op === 'arrays') result = prepareArrays(request.sql).all(...request.params);
    else if (request.op === 'run') result = prepare(request.sql).run(...request.params).changes;
    else {
      // Built from the rows in one pass each, in the same transaction.
      for (const index of bulk || []) db!.exec(index.sql);
      db!.exec('COMMIT');
    }
    post({ result });
  } catch (error) {
    failure = error;
    return post(errorAnswer(error));
  }
  if (request.op === 'commit') checkpointAndExit(db!);
}

/**
 * After the commit's answer: the log, most of which this transaction wrote, copied into the
 * database file, then the thread ends. Otherwise the next connection to commit would do it as
 * part of its commit (SQLite checkpoints a long log so), on the main thread for a request's
 * write, which would hold every other request meanwhile. PASSIVE: readers and writers carry on,
 * and a commit meanwhile finds the checkpoint taken and leaves it.
 */
function checkpointAndExit(connection: Database.Database): void {
  try {
    connection.pragma('wal_checkpoint(PASSIVE)');
  } finally {
    connection.close();
    port.close();
  }
}

try {
  db = new Database(file, { fileMustExist: true, timeout: timeoutMs });
  db.pragma('foreign_keys = ON');
  // Its log is checkpointed after the commit (checkpointAndExit), not in the middle of the load.
  db.pragma('wal_autocheckpoint = 0');
  db.exec('BEGIN IMMEDIATE');
  post({ result: true });
} catch (error) {
  failure = error;
  post(errorAnswer(error));
}
port.on('message', carryOut);
