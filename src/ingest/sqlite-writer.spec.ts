import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { InsertColumn } from './ingest-sql.js';
import { SqliteWriter } from './sqlite-writer.js';

const COLUMNS: InsertColumn[] = [
  { name: 'id', type: 'text' },
  { name: 'n', type: 'integer' },
];

describe('SqliteWriter', () => {
  let dir: string;
  let file: string;
  let db: Database.Database;

  const stored = () => (db.prepare('SELECT COUNT(*) AS n FROM t').get() as { n: number }).n;
  const rows = (count: number, from = 0) =>
    Array.from({ length: count }, (_, i) => [`id-${from + i}`, from + i]);

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sqlite-writer-'));
    file = join(dir, 'db.sqlite');
    db = new Database(file, { timeout: 50 });
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE t (id TEXT PRIMARY KEY, n INTEGER NOT NULL)');
  });
  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes more rows than it lets wait at once, in order, and commits them', async () => {
    const writer = await SqliteWriter.open(file, 1000);
    try {
      expect(await writer.insert('t', COLUMNS, rows(50_000))).toBe(50_000);
      // Not committed yet: another connection sees nothing.
      expect(stored()).toBe(0);
      expect(await writer.all('SELECT COUNT(*) AS n FROM t')).toEqual([{ n: 50_000 }]);
      expect(await writer.run('DELETE FROM t WHERE n >= ?', [49_990])).toBe(10);
      await writer.commit();
    } finally {
      writer.close();
    }
    expect(stored()).toBe(49_990);
  });

  it('throws a failed insert at the next request that waits, and rolls back', async () => {
    const writer = await SqliteWriter.open(file, 1000);
    try {
      await writer.insert('t', COLUMNS, rows(10));
      await writer.insert('t', COLUMNS, rows(1, 5));
      await expect(writer.all('SELECT 1')).rejects.toThrow(/UNIQUE constraint failed: t.id/);
      await expect(writer.commit()).rejects.toThrow(/UNIQUE constraint failed/);
      await writer.rollback();
    } finally {
      writer.close();
    }
    expect(stored()).toBe(0);
  });

  it('holds the write lock from the start, and fails to start while another writer has it', async () => {
    const writer = await SqliteWriter.open(file, 1000);
    try {
      expect(() => db.exec('INSERT INTO t VALUES (1, 1)')).toThrow(/locked|busy/i);
      await expect(SqliteWriter.open(file, 50)).rejects.toThrow(/locked|busy/i);
      await writer.rollback();
    } finally {
      writer.close();
    }
  });
});
