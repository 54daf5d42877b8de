import { afterAll, beforeAll, beforeEach, expect } from '@jest/globals';
import Database from 'better-sqlite3';
import type { DataSource } from 'typeorm';
import type { AppDataSource } from '../../src/database/app-data-source.js';
import { INGEST_PATH } from '../../src/runs/ingest.controller.js';
import { POSTGRES_INGEST_LOCK } from '../../src/database/postgres/postgres.dialect.js';
import { TestApp, type ApiResponse } from './test-app.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

/** Every row an ingestion may write, as one string: equal before and after, nothing was. */
export async function storeRows(dataSource: DataSource): Promise<string> {
  const sql = (text: string) => dataSource.query<Record<string, unknown>[]>(text);
  return JSON.stringify({
    assets: await sql('SELECT * FROM assets ORDER BY id'),
    sources: await sql('SELECT * FROM asset_sources ORDER BY asset_id, source'),
    findings: await sql('SELECT * FROM findings ORDER BY asset_id, vuln_id'),
    findingSources: await sql('SELECT * FROM finding_sources ORDER BY finding_id, source'),
    findingPeriods: await sql('SELECT * FROM finding_periods ORDER BY finding_id, opened_at'),
    services: await sql('SELECT * FROM services ORDER BY asset_id, port, protocol'),
    relations: await sql('SELECT * FROM relations ORDER BY id'),
  });
}

/**
 * Holds the locks another ingestion holds, until `release()`: this process's, and the
 * database's (a writer's transaction on SQLite, the ingestions' advisory lock on PostgreSQL, as
 * another replica's ingestion holds them). Resolves once they are taken.
 */
export async function holdIngestionLocks(
  dataSource: AppDataSource,
): Promise<{ release(): Promise<void> }> {
  let releaseLocks!: () => void;
  const held = new Promise<void>((resolve) => (releaseLocks = resolve));
  let locked!: () => void;
  const lockTaken = new Promise<void>((resolve) => (locked = resolve));
  const holder = dataSource.exclusiveWrites.run(async () => {
    if (dataSource.options.type === 'postgres') {
      const runner = dataSource.createQueryRunner();
      await runner.connect();
      await runner.startTransaction();
      await runner.query('SELECT pg_advisory_xact_lock($1)', [POSTGRES_INGEST_LOCK]);
      locked();
      await held;
      await runner.rollbackTransaction();
      await runner.release();
    } else {
      const writer = new Database(dataSource.options.database as string);
      writer.exec('BEGIN IMMEDIATE');
      locked();
      await held;
      writer.exec('ROLLBACK');
      writer.close();
    }
  });
  await lockTaken;
  return {
    release: () => {
      releaseLocks();
      return holder;
    },
  };
}

/** An ingestion with an Idempotency-Key to the service at `baseUrl`; its answer's exact bytes. */
export async function ingestWithKey(baseUrl: string, token: string, body: string, key: string) {
  const response = await fetch(`${baseUrl}${INGEST_PATH}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'idempotency-key': key,
    },
    body,
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** What an ingestion test file works with: the app, an admin's token and an editor's. */
export interface IngestionApp {
  t: TestApp;
  admin: string;
  editor: string;
}

/**
 * For the enclosing describe: the app on a database of its own, on a file for SQLite as in
 * production (each ingestion then runs on a connection of its own, its rows written by a worker
 * thread while the payload is still being read), with an admin and an editor, handed to `use`
 * once started; closed and dropped after. With `emptyEach`, every test starts on an empty store.
 */
export function useIngestionApp(
  use: (app: IngestionApp) => void,
  { emptyEach = false }: { emptyEach?: boolean } = {},
): void {
  let database: TestDatabase | undefined;
  let app: IngestionApp | undefined;
  beforeAll(async () => {
    database = await createTestDatabase({ file: true });
    const t = await TestApp.start({}, database);
    app = { t, admin: await t.login(), editor: (await t.createUser('editor')).token };
    use(app);
  });
  if (emptyEach) {
    beforeEach(async () => {
      const emptied = await app!.t.request('POST', INGEST_PATH, {
        token: app!.admin,
        body: { options: { mode: 'replace' } },
      });
      expect(emptied.status).toBe(200);
    });
  }
  afterAll(async () => {
    await app?.t.close();
    await database?.drop();
  });
}

/** A scanner's output posted as a client sends it: its own Content-Type, options in `query`. */
export function sendScannerBody(
  t: TestApp,
  token: string,
  body: string | Buffer,
  contentType: string,
  query = '',
  headers: Record<string, string> = {},
): Promise<ApiResponse> {
  return t.request('POST', `${INGEST_PATH}${query}`, {
    token,
    rawBody: body,
    headers: { 'content-type': contentType, ...headers },
  });
}
