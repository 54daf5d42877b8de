import type { Pool } from 'pg';
import type { DataSource, EntityManager } from 'typeorm';
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
