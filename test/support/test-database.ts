import { randomBytes } from 'node:crypto';
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

export async function createTestDatabase(): Promise<TestDatabase> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl || !testingPostgres()) return { url: 'sqlite::memory:', drop: async () => {} };

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
