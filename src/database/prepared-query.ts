import type { Pool } from 'pg';
import type { DataSource } from 'typeorm';
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
