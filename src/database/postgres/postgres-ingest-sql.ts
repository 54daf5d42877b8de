import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { PoolClient } from 'pg';
import type { QueryRunner } from 'typeorm';
import type { Dialect } from '../dialect/dialect.js';
import { insertInto, inBatches, type InsertColumn, type UnitSql } from '../ingest-sql.js';
import { MAX_QUEUED_INSERTS, POSTGRES_ROWS_PER_INSERT } from '../ingest-tuning.js';

/**
 * An ingestion's connection on PostgreSQL: its transaction, or (for the lookups) a snapshot.
 * Inserts and `runQueued` are queued, not awaited: the connection carries them out in order
 * while the main thread plans the next slice, as the SQLite writer thread does. A failure of
 * one is thrown by the next call that waits for an answer (at the latest, `settle`); the
 * statements queued after it are dropped (the transaction is aborted anyway).
 */
export class PostgresIngestSql implements UnitSql {
  readonly maxParams = 60_000;
  readonly idOrder = 'id COLLATE "C"';
  readonly readAhead = true;
  /** The last statement queued: each starts once the one before is over. */
  private tail: Promise<void> = Promise.resolve();
  private readonly queued: Promise<void>[] = [];
  private failure: { error: unknown } | null = null;

  constructor(
    readonly dialect: Dialect,
    private readonly runner: QueryRunner,
  ) {}

  async all<T>(sql: string, params: unknown[] = []): Promise<T[]> {
    await this.settle();
    return (await this.runner.query(PostgresIngestSql.numbered(sql), params)) as T[];
  }

  // pg's array rows (rowMode), on the runner's own connection.
  async arrays(sql: string, params: unknown[] = []): Promise<unknown[][]> {
    await this.settle();
    const client = (await this.runner.connect()) as PoolClient;
    const result = await client.query<unknown[]>({
      text: PostgresIngestSql.numbered(sql),
      values: params,
      rowMode: 'array',
    });
    return result.rows;
  }

  async run(sql: string, params: unknown[] = []): Promise<number> {
    await this.settle();
    const result = await this.runner.query(PostgresIngestSql.numbered(sql), params, true);
    return result.affected ?? 0;
  }

  runQueued(sql: string, params: unknown[]): Promise<void> {
    return this.enqueue(PostgresIngestSql.numbered(sql), params);
  }

  // As text: pg would format each Date of an array parameter again, once per row.
  timestamp(date: Date): string {
    return date.toISOString();
  }

  letOtherRequestsRun(): Promise<void> {
    return yieldToEventLoop();
  }

  /** A statement (unnestInsert's) per POSTGRES_ROWS_PER_INSERT rows. */
  insert(
    table: string,
    columns: InsertColumn[],
    rows: Iterable<unknown[]>,
    onConflict = '',
  ): Promise<number> {
    return inBatches(rows, POSTGRES_ROWS_PER_INSERT, (part) => {
      const { sql, params } = unnestInsert(table, columns, part, onConflict);
      return this.enqueue(sql, params);
    });
  }

  /** Once every queued statement is carried out: throws the first one's failure, if any. */
  async settle(): Promise<void> {
    await this.tail;
    this.throwFailure();
  }

  /** Once no queued statement is running, whatever became of them (before a rollback). */
  async drain(): Promise<void> {
    await this.tail;
  }

  /** Queues a statement; waits while too many are queued. */
  private async enqueue(sql: string, params: unknown[]): Promise<void> {
    this.throwFailure();
    const done = this.tail.then(async () => {
      if (this.failure) return;
      try {
        await this.runner.query(sql, params);
      } catch (error) {
        this.failure = { error };
      }
    });
    this.tail = done;
    this.queued.push(done);
    while (this.queued.length > MAX_QUEUED_INSERTS) await this.queued.shift();
    this.throwFailure();
  }

  private throwFailure(): void {
    if (this.failure) throw this.failure.error;
  }

  private static numbered(sql: string): string {
    let position = 0;
    return sql.replace(/\?/g, () => `$${++position}`);
  }
}

/**
 * The INSERT of `rows`: one array parameter per column, expanded by unnest, a short statement
 * however many rows it carries and faster than multi-row VALUES. A column holding one value in
 * every row (a status, a time, a NULL) is sent once, as a single parameter: pg escapes each
 * element of an array with two regular expressions. A long column's array is sent as JSON and
 * made an array again in its order (InsertColumn.long). The first column (an id) is always an
 * array, for the rows' count.
 */
export function unnestInsert(
  table: string,
  columns: readonly InsertColumn[],
  rows: readonly unknown[][],
  onConflict: string,
): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const arrays: string[] = [];
  const names: string[] = [];
  const selected = columns.map(({ type, long }, index) => {
    const first = rows[0][index];
    const p = `$${params.length + 1}`;
    if (index > 0 && rows.every((row) => row[index] === first)) {
      params.push(first);
      return `${p}::${type}`;
    }
    const values = rows.map((row) => row[index]);
    params.push(long ? JSON.stringify(values) : values);
    arrays.push(
      long
        ? `ARRAY(SELECT v FROM json_array_elements_text(${p}::json) WITH ORDINALITY AS j(v, n) ORDER BY n)`
        : `${p}::${type}[]`,
    );
    names.push(`c${index}`);
    return `u.c${index}`;
  });
  return {
    sql: `${insertInto(table, columns)} SELECT ${selected.join(', ')} FROM unnest(${arrays.join(', ')}) AS u(${names.join(', ')}) ${onConflict}`,
    params,
  };
}
