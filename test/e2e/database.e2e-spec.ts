import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestApp } from '../support/test-app.js';

describe('database schema', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(async () => {
    await t.close();
  });

  it('is created by the migrations alone, and they agree with the entities (no drift)', async () => {
    expect(t.dataSource.options.synchronize).toBe(false);
    const pending = await t.dataSource.showMigrations();
    expect(pending).toBe(false);
    // What `npm run migration:generate` would write: nothing.
    const diff = await t.dataSource.driver.createSchemaBuilder().log();
    expect(diff.upQueries.map((query) => query.query)).toEqual([]);
  });
});

describe('SQLite file database', () => {
  const folder = mkdtempSync(join(tmpdir(), 'assetmap-'));
  const file = join(folder, 'nested', 'dir', 'assets.sqlite');
  let t: TestApp;
  beforeAll(async () => {
    t = await TestApp.start({ DATABASE_URL: `sqlite:${file}` });
  });
  afterAll(async () => {
    await t.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('creates its missing folder', () => {
    expect(existsSync(file)).toBe(true);
  });

  it('runs in WAL mode with a busy timeout and foreign keys on', async () => {
    const pragma = async (name: string) =>
      Object.values((await t.dataSource.query<object[]>(`PRAGMA ${name}`))[0])[0];
    expect(await pragma('journal_mode')).toBe('wal');
    expect(await pragma('busy_timeout')).toBeGreaterThanOrEqual(5000);
    expect(await pragma('foreign_keys')).toBe(1);
  });
});
