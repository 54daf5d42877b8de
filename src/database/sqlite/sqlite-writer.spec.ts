import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import Database from 'better-sqlite3';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import type { InsertColumn } from '../ingest-sql.js';
import { SqliteWriter } from './sqlite-writer.js';
import { SqliteDialect } from './sqlite.dialect.js';

// The writer never asks its dialect anything but for its SQL: no data source behind it.
const dialectOf = (file: string) =>
  new SqliteDialect({ options: { database: file } } as unknown as DataSource);

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
    const writer = await SqliteWriter.open(dialectOf(file), file, 1000);
    try {
      expect(await writer.insert('t', COLUMNS, rows(50_000))).toBe(50_000);
      // Not committed yet: another connection sees nothing.
      expect(stored()).toBe(0);
      expect(await writer.all('SELECT COUNT(*) AS n FROM t')).toEqual([{ n: 50_000 }]);
      expect(await writer.run('DELETE FROM t WHERE n >= ?', [49_990])).toBe(10);
      await writer.commit();
    } finally {
      await writer.close();
    }
    expect(stored()).toBe(49_990);
  });

  it('checkpoints the log into the database file after its commit, then exits', async () => {
    const writer = await SqliteWriter.open(dialectOf(file), file, 1000);
    try {
      await writer.insert('t', COLUMNS, rows(5_000));
      await writer.commit();
    } finally {
      // Leaves a committed writer to its checkpoint.
      await writer.close();
    }
    await writer.finished;
    // The database file alone, without its log, holds the rows.
    const copy = join(dir, 'copy.sqlite');
    copyFileSync(file, copy);
    const alone = new Database(copy, { readonly: true });
    try {
      expect(alone.prepare('SELECT COUNT(*) AS n FROM t').get()).toEqual({ n: 5_000 });
    } finally {
      alone.close();
    }
  });

  it('throws a failed insert at the next request that waits, and rolls back', async () => {
    const writer = await SqliteWriter.open(dialectOf(file), file, 1000);
    try {
      await writer.insert('t', COLUMNS, rows(10));
      await writer.insert('t', COLUMNS, rows(1, 5));
      await expect(writer.all('SELECT 1')).rejects.toThrow(/UNIQUE constraint failed: t.id/);
      await expect(writer.commit()).rejects.toThrow(/UNIQUE constraint failed/);
      await writer.rollback();
    } finally {
      await writer.close();
    }
    expect(stored()).toBe(0);
  });

  it('runs a queued statement in turn after the inserts before it, and throws its failure at the next request that waits', async () => {
    const writer = await SqliteWriter.open(dialectOf(file), file, 1000);
    try {
      await writer.insert('t', COLUMNS, rows(10));
      // Reads the rows handed over just before it.
      await writer.runQueued("INSERT INTO t SELECT id || '-copy', n FROM t WHERE n < ?", [3]);
      expect(await writer.all('SELECT id FROM t WHERE id LIKE ? ORDER BY n', ['%-copy'])).toEqual([
        { id: 'id-0-copy' },
        { id: 'id-1-copy' },
        { id: 'id-2-copy' },
      ]);
      await writer.runQueued('INSERT INTO t SELECT id, n FROM t WHERE n = ?', [4]);
      await expect(writer.all('SELECT 1')).rejects.toThrow(/UNIQUE constraint failed: t.id/);
      await writer.rollback();
    } finally {
      await writer.close();
    }
    expect(stored()).toBe(0);
  });

  describe('a bulk load (every table given empty at the first insert)', () => {
    const INDEX = 'CREATE INDEX t_n ON t (n)';
    type Index = { name: string; sql: string | null };
    const INDEXES = "SELECT name, sql FROM sqlite_master WHERE type = 'index' ORDER BY name";
    const indexes = () => db.prepare(INDEXES).all() as Index[];
    const writerIndexes = (writer: SqliteWriter) => writer.all<Index>(INDEXES);

    beforeEach(() => {
      db.exec(INDEX);
    });

    it("drops the tables' own indexes until the commit, then builds them again", async () => {
      const before = indexes();
      expect(before).toEqual([
        { name: 'sqlite_autoindex_t_1', sql: null },
        { name: 't_n', sql: INDEX },
      ]);
      const writer = await SqliteWriter.open(dialectOf(file), file, 1000, ['t']);
      try {
        // 2,000 rows a message, 10 a statement: 2,345 leaves 345, and 5 for single inserts.
        expect(await writer.insert('t', COLUMNS, rows(2345))).toBe(2345);
        // The primary key's stays: upserts and lookups by id need it.
        expect(await writerIndexes(writer)).toEqual([before[0]]);
        // Other connections keep the committed state, indexes included.
        expect(indexes()).toEqual(before);
        await writer.commit();
      } finally {
        await writer.close();
      }
      expect(indexes()).toEqual(before);
      expect(stored()).toBe(2345);
      expect(db.prepare('SELECT id FROM t WHERE n IN (0, 2339, 2344) ORDER BY n').all()).toEqual([
        { id: 'id-0' },
        { id: 'id-2339' },
        { id: 'id-2344' },
      ]);
      expect(db.pragma('integrity_check')).toEqual([{ integrity_check: 'ok' }]);
    });

    it('keeps a unique index, so that a repeated value fails at its own row', async () => {
      db.exec('CREATE UNIQUE INDEX t_n_unique ON t (n)');
      const writer = await SqliteWriter.open(dialectOf(file), file, 1000, ['t']);
      try {
        await writer.insert('t', COLUMNS, [...rows(10), ['other', 3]]);
        await expect(writer.all('SELECT 1')).rejects.toThrow(/UNIQUE constraint failed: t.n/);
        await writer.rollback();
      } finally {
        await writer.close();
      }
      expect(indexes().map((index) => index.name)).toEqual([
        'sqlite_autoindex_t_1',
        't_n',
        't_n_unique',
      ]);
    });

    it('leaves the indexes when a table given holds a row', async () => {
      db.prepare('INSERT INTO t VALUES (?, ?)').run('stored', -1);
      const writer = await SqliteWriter.open(dialectOf(file), file, 1000, ['t']);
      try {
        await writer.insert('t', COLUMNS, rows(20));
        expect(await writerIndexes(writer)).toEqual(indexes());
        await writer.commit();
      } finally {
        await writer.close();
      }
      expect(stored()).toBe(21);
    });

    it('gets the indexes back by a rollback, after a repeated id among rows 10 to a statement', async () => {
      const before = indexes();
      const writer = await SqliteWriter.open(dialectOf(file), file, 1000, ['t']);
      try {
        // id-2 again in the first statement of 10.
        await writer.insert('t', COLUMNS, [...rows(5), ...rows(1, 2), ...rows(24, 5)]);
        await expect(writer.commit()).rejects.toThrow(/UNIQUE constraint failed: t.id/);
        await writer.rollback();
      } finally {
        await writer.close();
      }
      expect(indexes()).toEqual(before);
      expect(stored()).toBe(0);
    });
  });

  it('holds the write lock from the start, and fails to start while another writer has it', async () => {
    const writer = await SqliteWriter.open(dialectOf(file), file, 1000);
    try {
      expect(() => db.exec('INSERT INTO t VALUES (1, 1)')).toThrow(/locked|busy/i);
      await expect(SqliteWriter.open(dialectOf(file), file, 50)).rejects.toThrow(/locked|busy/i);
      await writer.rollback();
    } finally {
      await writer.close();
    }
  });
});
