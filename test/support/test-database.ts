import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/**
 * The database a test app runs on: a private in-memory SQLite database by default, or, when
 * TEST_DATABASE_URL names a PostgreSQL server (npm run test:pg), a schema of its own there,
 * so that test files can run in parallel and leave nothing behind.
 */
export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

export function testingPostgres(): boolean {
  return /^postgres(ql)?:/.test(process.env.TEST_DATABASE_URL ?? '');
}

/** A PostgreSQL server for tests that need one whatever TEST_DATABASE_URL says. */
export const POSTGRES_SERVER_URL = testingPostgres()
  ? process.env.TEST_DATABASE_URL!
  : 'postgres://postgres@127.0.0.1:5432/test';

/**
 * `file`: on SQLite, a database file (for a service in another process) instead of memory.
 * `postgres`: a schema on that PostgreSQL server, whatever TEST_DATABASE_URL says.
 */
export async function createTestDatabase(
  options: { file?: boolean; postgres?: string } = {},
): Promise<TestDatabase> {
  const serverUrl = options.postgres ?? process.env.TEST_DATABASE_URL;
  if (!serverUrl || !/^postgres(ql)?:/.test(serverUrl)) {
    if (!options.file) return { url: 'sqlite::memory:', drop: async () => {} };
    const dir = mkdtempSync(join(tmpdir(), 'asset-map-test-'));
    return {
      url: `sqlite:${join(dir, 'assetmap.sqlite')}`,
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }

  const schema = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();

  const url = new URL(serverUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    },
  };
}
