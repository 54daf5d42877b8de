import { describe, expect, it } from '@jest/globals';
import type { DataSource, QueryRunner } from 'typeorm';
import type { InsertColumn } from '../ingest-sql.js';
import { MAX_QUEUED_INSERTS } from '../ingest-tuning.js';
import { PostgresIngestSql, unnestInsert } from './postgres-ingest-sql.js';
import { PostgresDialect } from './postgres.dialect.js';

// The queue never asks its dialect anything: no data source behind it.
const DIALECT = new PostgresDialect({} as DataSource);

const COLUMNS: InsertColumn[] = [{ name: 'id', type: 'text' }];

/**
 * A connection whose statements finish when the test says: what was sent, in order, and how
 * many ran at once at most (pg refuses to run two at once on one client in its next major).
 */
function fakeConnection(failOn?: string) {
  const sent: string[] = [];
  const running: (() => void)[] = [];
  let busy = 0;
  let mostAtOnce = 0;
  const runner = {
    query: (sql: string, params: unknown[]) => {
      const label = sql.startsWith('INSERT') ? `insert ${String((params[0] as string[])[0])}` : sql;
      sent.push(label);
      busy++;
      mostAtOnce = Math.max(mostAtOnce, busy);
      return new Promise((resolve, reject) => {
        running.push(() => {
          busy--;
          if (label === failOn) reject(new Error(`${label} failed`));
          else resolve([]);
        });
      });
    },
  } as unknown as QueryRunner;
  /** Finishes the statements running, and those they let start, until none is left. */
  const finishAll = async () => {
    for (let turn = 0; turn < 1000; turn++) {
      await new Promise((resolve) => setImmediate(resolve));
      const next = running.shift();
      if (!next) return;
      next();
    }
  };
  return { runner, sent, finishAll, mostAtOnce: () => mostAtOnce };
}

const oneRow = (id: string) => [[id]];

describe('PostgresIngestSql', () => {
  it('queues inserts without waiting for them, and runs them one at a time, in order', async () => {
    const connection = fakeConnection();
    const sql = new PostgresIngestSql(DIALECT, connection.runner);
    expect(await sql.insert('t', COLUMNS, oneRow('a'))).toBe(1);
    expect(await sql.insert('t', COLUMNS, oneRow('b'))).toBe(1);
    // Both handed over; the first one is running.
    expect(connection.sent).toEqual(['insert a']);
    const answered = sql.all('SELECT 1');
    await connection.finishAll();
    await answered;
    expect(connection.sent).toEqual(['insert a', 'insert b', 'SELECT 1']);
    expect(connection.mostAtOnce()).toBe(1);
  });

  it('makes the caller wait once too many statements are queued', async () => {
    const connection = fakeConnection();
    const sql = new PostgresIngestSql(DIALECT, connection.runner);
    for (let i = 0; i < MAX_QUEUED_INSERTS; i++) await sql.insert('t', COLUMNS, oneRow(`${i}`));
    let handedOver = false;
    const more = sql.insert('t', COLUMNS, oneRow('more')).then(() => (handedOver = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(handedOver).toBe(false);
    await connection.finishAll();
    await more;
    await sql.settle();
    expect(connection.sent).toHaveLength(MAX_QUEUED_INSERTS + 1);
  });

  it('throws a queued failure at the next call that waits, and sends nothing after it', async () => {
    const connection = fakeConnection('insert b');
    const sql = new PostgresIngestSql(DIALECT, connection.runner);
    for (const id of ['a', 'b', 'c']) await sql.insert('t', COLUMNS, oneRow(id));
    const answered = expect(sql.run('UPDATE t SET n = 1')).rejects.toThrow('insert b failed');
    await connection.finishAll();
    await answered;
    await expect(sql.settle()).rejects.toThrow('insert b failed');
    await expect(sql.insert('t', COLUMNS, oneRow('d'))).rejects.toThrow('insert b failed');
    // drain() waits without throwing: what a rollback needs.
    await expect(sql.drain()).resolves.toBeUndefined();
    expect(connection.sent).toEqual(['insert a', 'insert b']);
  });
});

describe('unnestInsert', () => {
  const columns: InsertColumn[] = [
    { name: 'id', type: 'text' },
    { name: 'status', type: 'text' },
    { name: 'n', type: 'integer' },
    { name: 'body', type: 'text', long: true },
  ];

  it('sends a column of one value once, a long one as JSON, and the first one as an array', () => {
    const { sql, params } = unnestInsert(
      't',
      columns,
      [
        ['a', 'pending', 1, '{"x":"a\\"b"}'],
        ['b', 'pending', 2, null],
      ],
      'ON CONFLICT DO NOTHING',
    );
    expect(sql).toBe(
      'INSERT INTO t (id, status, n, body) SELECT u.c0, $2::text, u.c2, u.c3 FROM unnest($1::text[], $3::integer[], ' +
        'ARRAY(SELECT v FROM json_array_elements_text($4::json) WITH ORDINALITY AS j(v, n) ORDER BY n)) ' +
        'AS u(c0, c2, c3) ON CONFLICT DO NOTHING',
    );
    expect(params).toEqual([['a', 'b'], 'pending', [1, 2], '["{\\"x\\":\\"a\\\\\\"b\\"}",null]']);
    expect(JSON.parse(params[3] as string)).toEqual(['{"x":"a\\"b"}', null]);
  });

  it('keeps the first column an array when every column holds one value', () => {
    const { sql, params } = unnestInsert('t', columns, [['a', 'open', 1, null]], '');
    expect(sql).toContain('FROM unnest($1::text[]) AS u(c0)');
    expect(params).toEqual([['a'], 'open', 1, null]);
  });
});
