import type { InsertColumn, IngestSql } from '../ingest-sql.js';

// The pieces every column table is made of: a column's name, and its type as bulk inserts type
// it (ingest-sql.ts), kept as literals so that the rows' types can be derived from them.

export const text = <N extends string>(name: N) => ({ name, type: 'text' }) as const;
/** Text of a JSON document or any long, quoted text (InsertColumn.long). */
export const longText = <N extends string>(name: N) =>
  ({ name, type: 'text', long: true }) as const;
export const integer = <N extends string>(name: N) => ({ name, type: 'integer' }) as const;
export const timestamp = <N extends string>(name: N) => ({ name, type: 'timestamptz' }) as const;
export const boolean = <N extends string>(name: N) => ({ name, type: 'boolean' }) as const;
export const json = <N extends string>(name: N) => ({ name, type: 'json' }) as const;

/** A table's columns by entity property, none embedded. */
type FlatColumnTable = Readonly<Record<string, InsertColumn>>;

/** A stored value as raw SQL reads it: timestamps as UTC text from SQLite, Dates from pg. */
type Stored<T> = T extends Date ? Date | string : T;

/**
 * A row of `table` as raw SQL reads it: keyed by column name, each typed as the entity `E`
 * types its property.
 */
export type RowOf<E, C extends FlatColumnTable> = {
  [P in keyof C & keyof E as C[P]['name']]: Stored<E[P]>;
};

/**
 * The SELECT list of `columns`: a date column as its `YYYY-MM-DD` text (pg would parse it into
 * a Date, while the API and the payload hold the text).
 */
export function selectList(columns: readonly InsertColumn[]): string {
  return columns
    .map(({ name, type }) => (type === 'date' ? `CAST(${name} AS TEXT) AS ${name}` : name))
    .join(', ');
}

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
