import type BetterSqlite3 from 'better-sqlite3';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Dialect } from '../dialect/dialect.js';
import { SQLITE_MAX_PARAMS, type IngestLookups } from '../ingest-sql.js';

/**
 * Lookups on a read-only SQLite connection beside the ingestion's writer: it shows the state
 * before the ingestion, which is what the plan is made against.
 */
export class SqliteLookups implements IngestLookups {
  readonly maxParams = SQLITE_MAX_PARAMS;
  readonly idOrder = 'id';
  readonly readAhead = false;
  private readonly statements = new Map<string, BetterSqlite3.Statement>();
  /** Statements in raw mode (rows as arrays): a statement's mode is its own. */
  private readonly arrayStatements = new Map<string, BetterSqlite3.Statement>();

  constructor(
    private readonly db: BetterSqlite3.Database,
    readonly dialect: Dialect,
  ) {}

  // better-sqlite3 is synchronous: a turn of the event loop after each statement keeps the
  // service answering (health probes included) while a large ingestion runs.
  async all<T>(sql: string, params: unknown[] = []): Promise<T[]> {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    const rows = statement.all(...params) as T[];
    await yieldToEventLoop();
    return rows;
  }

  async arrays(sql: string, params: unknown[] = []): Promise<unknown[][]> {
    let statement = this.arrayStatements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql).raw(true);
      this.arrayStatements.set(sql, statement);
    }
    const rows = statement.all(...params) as unknown[][];
    await yieldToEventLoop();
    return rows;
  }
}
