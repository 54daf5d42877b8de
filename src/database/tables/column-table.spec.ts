import { describe, expect, it } from '@jest/globals';
import type { IngestSql } from '../ingest-sql.js';
import { boundValue, columnPaths, flatColumns, rowValues } from './column-table.js';

const TABLE = {
  id: { name: 'id', type: 'text' },
  actor: {
    userId: { name: 'actor_user_id', type: 'text' },
    email: { name: 'actor_email', type: 'text' },
  },
  at: { name: 'at', type: 'timestamptz' },
  done: { name: 'done', type: 'boolean' },
  stats: { name: 'stats', type: 'json' },
} as const;

const SQL = { timestamp: (date: Date) => `at ${date.toISOString()}` } as unknown as IngestSql;

describe('column tables', () => {
  it("flattens an embedded entity's columns where it stands", () => {
    expect(flatColumns(TABLE).map((column) => column.name)).toEqual([
      'id',
      'actor_user_id',
      'actor_email',
      'at',
      'done',
      'stats',
    ]);
    expect(columnPaths(TABLE).map(([path]) => path)).toEqual([
      'id',
      'actor.userId',
      'actor.email',
      'at',
      'done',
      'stats',
    ]);
  });

  it("reads an entity's values in the same order, bound as TypeORM writes them", () => {
    const row = {
      id: 'r-1',
      actor: { userId: 'u-1', email: 'a@example.com' },
      at: new Date('2026-01-02T03:04:05.006Z'),
      done: false,
      stats: { created: 2 },
    };
    expect(rowValues(TABLE, row, (column, value) => boundValue(SQL, column, value))).toEqual([
      'r-1',
      'u-1',
      'a@example.com',
      'at 2026-01-02T03:04:05.006Z',
      0,
      '{"created":2}',
    ]);
    const empty = { ...row, at: null, done: null, stats: null };
    expect(rowValues(TABLE, empty, (column, value) => boundValue(SQL, column, value))).toEqual([
      'r-1',
      'u-1',
      'a@example.com',
      null,
      null,
      null,
    ]);
  });
});
