import type BetterSqlite3 from 'better-sqlite3';
import pg, { type CustomTypesConfig, type Pool, type QueryConfig } from 'pg';
import type { DataSource, EntityManager } from 'typeorm';
import type { BetterSqlite3Driver } from 'typeorm/driver/better-sqlite3/BetterSqlite3Driver.js';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver.js';

// Reads written as SQL with :named parameters, for the routes whose reads cost more through
// TypeORM's query path than they take to run: prepared statements and pg's per-query options
// on PostgreSQL, rows as arrays on either database.

const TIMESTAMPTZ = 1184;

/** pg's own parsers, but timestamptz columns left as the text PostgreSQL sends. */
const TIMESTAMPS_AS_TEXT: CustomTypesConfig = {
  getTypeParser: (oid: number, format?: 'text' | 'binary'): unknown =>
    oid === TIMESTAMPTZ ? (text: string) => text : (pg.types.getTypeParser(oid, format) as unknown),
};

/** How runNamed runs a read on PostgreSQL, through the data source's own manager. */
export interface ReadOptions {
  /**
   * The name of a text that never changes, run as that prepared statement of each pooled
   * connection: TypeORM's `query` sends the text each time, and PostgreSQL plans it each time
   * (for a short read with subqueries the planning took longer than the run).
   */
  prepared?: string;
  /**
   * timestamptz columns as PostgreSQL's text rather than Dates, for a read whose timestamps
   * only go out as text (isoTimestamp rewrites it): a Date per timestamp, parsed and then
   * formatted again, is a large share of the list's time on the main thread.
   */
  timestampsAsText?: boolean;
}

/**
 * Runs `query` through the pg pool TypeORM's driver holds (its public `master`), outside any
 * transaction, logged as TypeORM logs its own queries.
 */
async function poolQuery<T>(dataSource: DataSource, query: QueryConfig): Promise<T[]> {
  const pool = (dataSource.driver as PostgresDriver).master as Pool;
  dataSource.logger.logQuery(query.text, query.values);
  try {
    return (await pool.query(query)).rows as T[];
  } catch (error) {
    dataSource.logger.logQueryError(error as Error, query.text, query.values);
    throw error;
  }
}

/**
 * Runs SQL with :named parameters through `manager`, in the placeholders of its database, with
 * `options` on PostgreSQL when `manager` is the data source's own (outside a transaction).
 */
export function runNamed<T>(
  manager: EntityManager,
  sql: string,
  parameters: Record<string, unknown>,
  { prepared, timestampsAsText }: ReadOptions = {},
): Promise<T[]> {
  const { connection } = manager;
  const [text, values] = connection.driver.escapeQueryWithParameters(sql, parameters);
  const own = connection.options.type === 'postgres' && manager === connection.manager;
  if (own && (prepared || timestampsAsText)) {
    return poolQuery<T>(connection, {
      text,
      values,
      ...(prepared && { name: prepared }),
      ...(timestampsAsText && { types: TIMESTAMPS_AS_TEXT }),
    });
  }
  return manager.query<T[]>(text, values);
}

// Statements cached as TypeORM's query runner caches them (at most this many, oldest out
// first), but in raw mode: they answer each row as an array.
const ARRAY_STATEMENTS_KEPT = 100;
const arrayStatements = new WeakMap<BetterSqlite3.Database, Map<string, BetterSqlite3.Statement>>();

function arrayStatement(db: BetterSqlite3.Database, sql: string): BetterSqlite3.Statement {
  let kept = arrayStatements.get(db);
  if (kept === undefined)
    arrayStatements.set(db, (kept = new Map<string, BetterSqlite3.Statement>()));
  let statement = kept.get(sql);
  if (statement === undefined) {
    statement = db.prepare(sql).raw(true);
    kept.set(sql, statement);
    if (kept.size > ARRAY_STATEMENTS_KEPT) kept.delete(kept.keys().next().value as string);
  }
  return statement;
}

/**
 * runNamed for a read through the data source's own connection (never in a transaction), each
 * row an array of its columns' values in the SELECT's order. For pages read often and mapped
 * to JSON at once (the change history): making an object of every row, by column names, cost
 * more than the statement itself. `prepared` as for runNamed.
 */
export async function readArrays(
  dataSource: DataSource,
  sql: string,
  parameters: Record<string, unknown>,
  prepared?: string,
): Promise<unknown[][]> {
  const [text, values] = dataSource.driver.escapeQueryWithParameters(sql, parameters);
  if (dataSource.options.type === 'postgres') {
    const query = { text, values, rowMode: 'array' as const };
    return poolQuery(dataSource, prepared ? { ...query, name: prepared } : query);
  }
  dataSource.logger.logQuery(text, values);
  try {
    const db = (dataSource.driver as BetterSqlite3Driver)
      .databaseConnection as BetterSqlite3.Database;
    return arrayStatement(db, text).all(...(values as unknown[])) as unknown[][];
  } catch (error) {
    dataSource.logger.logQueryError(error as Error, text, values);
    throw error;
  }
}
