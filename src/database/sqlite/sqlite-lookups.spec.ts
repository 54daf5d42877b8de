import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { SqliteLookups } from './sqlite-lookups.js';
import { SqliteDialect } from './sqlite.dialect.js';

// The lookups never ask their dialect anything: no data source behind it.
const dialectOf = (file: string) =>
  new SqliteDialect({ options: { database: file } } as unknown as DataSource);

describe('SqliteLookups', () => {
  let dir: string;
  let file: string;
  let db: Database.Database;
  let lookups: SqliteLookups | null = null;

  const open = async (snapshot: boolean) =>
    (lookups = await SqliteLookups.open(dialectOf(file), file, 1000, snapshot));

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sqlite-lookups-'));
    file = join(dir, 'db.sqlite');
    db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.exec("CREATE TABLE t (id TEXT PRIMARY KEY, n INTEGER); INSERT INTO t VALUES ('a', 1)");
  });

  afterEach(async () => {
    await lookups?.close();
    lookups = null;
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers requests sent together in their order, as objects or as arrays', async () => {
    db.exec("INSERT INTO t VALUES ('b', 2), ('c', 3)");
    const sql = await open(false);
    const answers = await Promise.all([
      sql.all('SELECT id, n FROM t WHERE n >= ? ORDER BY id', [2]),
      sql.arrays('SELECT id, n FROM t ORDER BY id'),
      sql.all('SELECT COUNT(*) AS n FROM t'),
    ]);
    expect(answers).toEqual([
      [
        { id: 'b', n: 2 },
        { id: 'c', n: 3 },
      ],
      [
        ['a', 1],
        ['b', 2],
        ['c', 3],
      ],
      [{ n: 3 }],
    ]);
  });

  it("rejects a failing request with the database's error, and answers the next one", async () => {
    const sql = await open(false);
    const failing = sql.all('SELECT nope FROM t');
    const next = sql.all('SELECT id FROM t');
    await expect(failing).rejects.toThrow('no such column: nope');
    await expect(next).resolves.toEqual([{ id: 'a' }]);
    // Read-only: a write is refused.
    await expect(sql.all("INSERT INTO t VALUES ('x', 9) RETURNING id")).rejects.toThrow(/readonly/);
  });

  it("keeps its first read's state in a snapshot; without one, reads what is committed", async () => {
    const inSnapshot = await open(true);
    expect(await inSnapshot.all('SELECT id FROM t')).toEqual([{ id: 'a' }]);
    db.exec("INSERT INTO t VALUES ('b', 2)");
    expect(await inSnapshot.all('SELECT id FROM t ORDER BY id')).toEqual([{ id: 'a' }]);
    await inSnapshot.close();
    const plain = await open(false);
    expect(await plain.all('SELECT id FROM t ORDER BY id')).toEqual([{ id: 'a' }, { id: 'b' }]);
    db.exec("INSERT INTO t VALUES ('c', 3)");
    expect(await plain.all('SELECT COUNT(*) AS n FROM t')).toEqual([{ n: 3 }]);
  });

  it('fails to open a file that is not there', async () => {
    await expect(
      SqliteLookups.open(dialectOf(file), join(dir, 'missing.sqlite'), 1000, false),
    ).rejects.toThrow(/unable to open|directory does not exist|not/i);
  });
});
