import type BetterSqlite3 from 'better-sqlite3';
import type { Pool } from 'pg';
import type { DataSource, EntityManager } from 'typeorm';
import type { BetterSqlite3Driver } from 'typeorm/driver/better-sqlite3/BetterSqlite3Driver.js';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver.js';

/**
 * Runs a read (`$n` placeholders) on PostgreSQL as the prepared statement `name` of each pooled
 * connection, through the pg pool TypeORM's driver holds (its public `master`). TypeORM's
 * `query` sends the text each time, and PostgreSQL plans it each time: for a short read with
 * subqueries (an asset's changes) the planning took longer than the run. Outside any
 * transaction only; `name` is given to one text only.
 */
export async function preparedQuery<T>(
  dataSource: DataSource,
  name: string,
  text: string,
  values: unknown[],
): Promise<T[]> {
  const pool = (dataSource.driver as PostgresDriver).master as Pool;
  // Logged as TypeORM logs its own queries, for the same settings to show them.
  dataSource.logger.logQuery(text, values);
  try {
    return (await pool.query({ name, text, values })).rows as T[];
  } catch (error) {
    dataSource.logger.logQueryError(error as Error, text, values);
    throw error;
  }
}

/**
 * Runs SQL with :named parameters through `manager`, in the placeholders of its database.
 * `prepared`: the name of a text that never changes, run as that prepared statement
 * (preparedQuery) on PostgreSQL when `manager` is the data source's own, outside a transaction.
 */
export function runNamed<T>(
  manager: EntityManager,
  sql: string,
  parameters: Record<string, unknown>,
  prepared?: string,
): Promise<T[]> {
  const { connection } = manager;
  const [query, values] = connection.driver.escapeQueryWithParameters(sql, parameters);
  if (prepared && connection.options.type === 'postgres' && manager === connection.manager) {
    return preparedQuery<T>(connection, prepared, query, values);
  }
  return manager.query<T[]>(query, values);
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
  dataSource.logger.logQuery(text, values);
  try {
    if (dataSource.options.type === 'postgres') {
      const pool = (dataSource.driver as PostgresDriver).master as Pool;
      const query = { text, values, rowMode: 'array' as const };
      return (await pool.query(prepared ? { ...query, name: prepared } : query))
        .rows as unknown[][];
    }
    const db = (dataSource.driver as BetterSqlite3Driver)
      .databaseConnection as BetterSqlite3.Database;
    return arrayStatement(db, text).all(...(values as unknown[])) as unknown[][];
  } catch (error) {
    dataSource.logger.logQueryError(error as Error, text, values);
    throw error;
  }
}
