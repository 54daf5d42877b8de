import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { QueryRunner } from 'typeorm';
import { insertInto, inBatches, type IngestSql, type InsertColumn } from '../ingest-sql.js';
import { POSTGRES_ROWS_PER_INSERT } from '../ingest-tuning.js';

/** The ingestion's transaction on PostgreSQL, which also serves its lookups. */
export class PostgresIngestSql implements IngestSql {
  readonly maxParams = 60_000;
  readonly idOrder = 'id COLLATE "C"';
  readonly forUpdate = 'FOR UPDATE';
  readonly dialect = 'postgres';

  constructor(private readonly runner: QueryRunner) {}

  async all<T>(sql: string, params: unknown[] = []): Promise<T[]> {
    return (await this.runner.query(PostgresIngestSql.numbered(sql), params)) as T[];
  }

  async run(sql: string, params: unknown[] = []): Promise<number> {
    const result = await this.runner.query(PostgresIngestSql.numbered(sql), params, true);
    return result.affected ?? 0;
  }

  async runQueued(sql: string, params: unknown[]): Promise<void> {
    await this.run(sql, params);
  }

  timestamp(date: Date): Date {
    return date;
  }

  letOtherRequestsRun(): Promise<void> {
    return yieldToEventLoop();
  }

  /**
   * One array parameter per column, expanded by unnest: a fixed, short statement however many
   * rows it carries, and several times faster than multi-row VALUES.
   */
  async insert(
    table: string,
    columns: InsertColumn[],
    rows: Iterable<unknown[]>,
    onConflict = '',
  ): Promise<number> {
    const arrays = columns.map((column, index) => `$${index + 1}::${column.type}[]`).join(', ');
    const sql = `${insertInto(table, columns)} SELECT * FROM unnest(${arrays}) ${onConflict}`;
    return inBatches(rows, POSTGRES_ROWS_PER_INSERT, async (part) => {
      await this.runner.query(
        sql,
        columns.map((_column, index) => part.map((row) => row[index])),
      );
    });
  }

  private static numbered(sql: string): string {
    let position = 0;
    return sql.replace(/\?/g, () => `$${++position}`);
  }
}
