import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import Database from 'better-sqlite3';
import { SEARCH_MATCHES_TABLE, SqliteSearchMatches } from './sqlite-search-matches.js';

describe('SqliteSearchMatches', () => {
  let db: Database.Database;
  let matches: SqliteSearchMatches;
  const matched = `SELECT r FROM ${SEARCH_MATCHES_TABLE} ORDER BY r`;

  beforeEach(() => {
    db = new Database(':memory:');
    db.exec(`CREATE VIRTUAL TABLE assets_search USING fts5(name, content='',
      contentless_delete=1, tokenize='trigram case_sensitive 1')`);
    const insert = db.prepare('INSERT INTO assets_search(rowid, name) VALUES (?, ?)');
    for (const [rowid, name] of [
      [1, 'host 12'],
      [2, 'host 3'],
      [3, 'my host 120'],
    ] as const)
      insert.run(rowid, name);
    matches = new SqliteSearchMatches(() => db);
  });

  afterEach(() => {
    db.close();
  });

  it('holds the rowids matching the phrase while the work runs, then none', () => {
    const rows = matches.within('"host 12"', (query) => query<{ r: number }>(matched, []));
    expect(rows.map((row) => row.r)).toEqual([1, 3]);
    expect(db.prepare(matched).all()).toEqual([]);
  });

  it('empties the table when the work fails', () => {
    expect(() =>
      matches.within('"host"', () => {
        throw new Error('failed');
      }),
    ).toThrow('failed');
    expect(db.prepare(matched).all()).toEqual([]);
  });

  it('runs inside a transaction already open on the connection, leaving it open', () => {
    db.exec('BEGIN');
    db.prepare('INSERT INTO assets_search(rowid, name) VALUES (4, ?)').run('host 129');
    const rows = matches.within('"host 12"', (query) => query<{ r: number }>(matched, []));
    expect(rows.map((row) => row.r)).toEqual([1, 3, 4]);
    expect(db.inTransaction).toBe(true);
    db.exec('ROLLBACK');
  });
});
