import type { EntityMetadata } from 'typeorm';
import type { IngestSql } from '../database/ingest-sql.js';

/** `value` as TypeORM would write it to `type`'s column, for a hand-written statement. */
function databaseValue(sql: IngestSql, type: unknown, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (type === 'simple-json') return JSON.stringify(value);
  if (value instanceof Date) return sql.timestamp(value);
  // SQLite binds no booleans; PostgreSQL reads '1' and '0' as booleans too.
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value;
}

/**
 * Inserts `entity` whole, or, when a row with its primary key is there, writes every column of
 * it over that row; on the ingestion's transaction rather than on TypeORM's connection.
 */
export async function upsertWithin<T extends object>(
  sql: IngestSql,
  metadata: EntityMetadata,
  entity: T,
): Promise<number> {
  const columns = metadata.columns.map((column) => ({
    name: `"${column.databaseName}"`,
    // getEntityValue reads an embedded's columns (the actor's) from their object.
    value: databaseValue(sql, column.type, column.getEntityValue(entity)),
    primary: column.isPrimary,
  }));
  const keys = columns.filter((column) => column.primary).map((column) => column.name);
  const others = columns.filter((column) => !column.primary).map((column) => column.name);
  return sql.run(
    `INSERT INTO ${metadata.tableName} (${columns.map((column) => column.name).join(', ')})` +
      ` VALUES (${columns.map(() => '?').join(', ')})` +
      ` ON CONFLICT (${keys.join(', ')}) DO UPDATE SET ${others.map((name) => `${name} = excluded.${name}`).join(', ')}`,
    columns.map((column) => column.value),
  );
}

/**
 * An UPDATE of the entity's rows matching `where` (property names and values, as for TypeORM's
 * own update), run on the ingestion's transaction rather than on TypeORM's connection.
 */
export async function updateWithin<T>(
  sql: IngestSql,
  metadata: EntityMetadata,
  where: Partial<T>,
  changes: Partial<T>,
): Promise<number> {
  const assignments = (values: Partial<T>) =>
    Object.entries(values).map(([property, value]) => {
      const column = metadata.findColumnWithPropertyName(property);
      if (!column) throw new Error(`${metadata.name} has no column ${property}`);
      return { name: column.databaseName, value: databaseValue(sql, column.type, value) };
    });
  const set = assignments(changes);
  const conditions = assignments(where);
  return sql.run(
    `UPDATE ${metadata.tableName} SET ${set.map((column) => `"${column.name}" = ?`).join(', ')}` +
      ` WHERE ${conditions.map((column) => `"${column.name}" = ?`).join(' AND ')}`,
    [...set.map((column) => column.value), ...conditions.map((column) => column.value)],
  );
}
