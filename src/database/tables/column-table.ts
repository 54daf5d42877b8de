import type { InsertColumn, IngestSql } from '../ingest-sql.js';

/**
 * A column as a statement written by hand binds its values: the types of bulk inserts, and
 * booleans and JSON text (TypeORM's `simple-json`).
 */
export interface TableColumn {
  name: string;
  type: InsertColumn['type'] | 'boolean' | 'json';
}

/** A table's column of each property; an embedded entity's (the actor's) under its property. */
export interface ColumnTable<C extends TableColumn = TableColumn> {
  readonly [property: string]: C | ColumnTable<C>;
}

const isColumn = <C extends TableColumn>(entry: C | ColumnTable<C>): entry is C =>
  typeof entry.name === 'string';

/** Each column of `table` with its property's path (`actor.userId`), in the table's order. */
export function columnPaths<C extends TableColumn>(
  table: ColumnTable<C>,
  prefix = '',
): [path: string, column: C][] {
  return Object.entries(table).flatMap(([property, entry]) =>
    isColumn(entry)
      ? [[`${prefix}${property}`, entry] as [string, C]]
      : columnPaths(entry, `${prefix}${property}.`),
  );
}

/** Every column of `table`, in its order: an embedded entity's where it stands. */
export function flatColumns<C extends TableColumn>(table: ColumnTable<C>): C[] {
  return columnPaths(table).map(([, column]) => column);
}

/** `entity`'s values in the order of flatColumns(table), each as `bind` makes it. */
export function rowValues<C extends TableColumn>(
  table: ColumnTable<C>,
  entity: object,
  bind: (column: C, value: unknown) => unknown,
): unknown[] {
  const values = entity as Record<string, unknown>;
  return Object.entries(table).flatMap(([property, entry]) =>
    isColumn(entry)
      ? [bind(entry, values[property])]
      : rowValues(entry, values[property] as object, bind),
  );
}

/** `value` as TypeORM would write it to `column`, for a statement on an ingestion's `sql`. */
export function boundValue(sql: IngestSql, column: TableColumn, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (column.type === 'json') return JSON.stringify(value);
  if (column.type === 'timestamptz') return sql.timestamp(value as Date);
  // SQLite binds no booleans; PostgreSQL reads '1' and '0' as booleans too.
  if (column.type === 'boolean') return value ? 1 : 0;
  return value;
}
