import type { InsertColumn } from '../ingest-sql.js';

// The pieces every column table is made of: a column's name, and its type as bulk inserts type
// it (ingest-sql.ts), kept as literals so that the rows' types can be derived from them.

export const text = <N extends string>(name: N) => ({ name, type: 'text' }) as const;
export const integer = <N extends string>(name: N) => ({ name, type: 'integer' }) as const;
export const timestamp = <N extends string>(name: N) => ({ name, type: 'timestamptz' }) as const;

/** A table's columns by entity property. */
export type ColumnTable = Readonly<Record<string, InsertColumn>>;

/** A stored value as raw SQL reads it: timestamps as UTC text from SQLite, Dates from pg. */
type Stored<T> = T extends Date ? Date | string : T;

/**
 * A row of `table` as raw SQL reads it: keyed by column name, each typed as the entity `E`
 * types its property.
 */
export type RowOf<E, C extends ColumnTable> = {
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
