import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { EntityManager } from 'typeorm';
import type { Dialect } from '../dialect/dialect.js';
import {
  inBatches,
  sqliteInsert,
  sqliteTimestamp,
  SQLITE_MAX_PARAMS,
  type InsertColumn,
  type UnitSql,
} from '../ingest-sql.js';

// Rows of one multi-row insert: well within the parameters a statement binds.
const ROWS_PER_INSERT = 500;

/**
 * The statements of an ingestion's writes (IngestSql), run in a route's write unit on SQLite:
 * through its manager, on the service's own connection, so that a route and an ingestion write
 * an asset's findings with the same statements.
 */
export class SqliteUnitSql implements UnitSql {
  readonly maxParams = SQLITE_MAX_PARAMS;
  readonly idOrder = 'id';
  readonly readAhead = false;

  constructor(
    readonly dialect: Dialect,
    private readonly manager: EntityManager,
  ) {}

  all<T>(sql: string, params: unknown[] = []): Promise<T[]> {
    return this.manager.query<T[]>(sql, params);
  }

  // A route's unit reads one asset's rows: their objects' values, in the SELECT's order.
  async arrays(sql: string, params: unknown[] = []): Promise<unknown[][]> {
    const rows = await this.manager.query<Record<string, unknown>[]>(sql, params);
    return rows.map((row) => Object.values(row));
  }

  async run(sql: string, params: unknown[] = []): Promise<number> {
    const result = await this.manager.queryRunner!.query(sql, params, true);
    return result.affected ?? 0;
  }

  async runQueued(sql: string, params: unknown[]): Promise<void> {
    await this.manager.query(sql, params);
  }

  timestamp(date: Date): string {
    return sqliteTimestamp(date);
  }

  letOtherRequestsRun(): Promise<void> {
    return yieldToEventLoop();
  }

  insert(
    table: string,
    columns: InsertColumn[],
    rows: Iterable<unknown[]>,
    onConflict = '',
  ): Promise<number> {
    return inBatches(rows, ROWS_PER_INSERT, async (part) => {
      await this.manager.query(sqliteInsert(table, columns, onConflict, part.length), part.flat());
    });
  }

  async settle(): Promise<void> {}
}
