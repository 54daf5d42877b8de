import pg from 'pg';

// As TypeORM and ingestion write datetimes to SQLite: ISO 8601 but for the 'T' and the 'Z'.
const SQLITE_DATETIME = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$/;
// A timestamptz as PostgreSQL writes it in a UTC session (as the service's reads ask for):
// up to microseconds, trailing zeros left out.
const POSTGRES_UTC = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?\+00$/;
// The same in a session of another time zone: its offset, to the second.
const POSTGRES_OFFSET = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d{1,6})?[+-]\d\d(?::\d\d){0,2}$/;
const parsePostgresTimestamp = pg.types.getTypeParser(1184) as (text: string) => Date;

/**
 * A stored timestamp as the API shows it (ISO 8601, UTC, milliseconds): a Date, SQLite's text,
 * or PostgreSQL's (runNamed's timestampsAsText).
 */
export function isoTimestamp(value: Date | string): string {
  if (typeof value !== 'string') return value.toISOString();
  // Rewritten rather than parsed: the list shows 200 of them per page.
  if (SQLITE_DATETIME.test(value)) return `${value.slice(0, 10)}T${value.slice(11)}Z`;
  const utc = POSTGRES_UTC.exec(value);
  // Microseconds cut to milliseconds, as a Date keeps them.
  if (utc !== null) return `${utc[1]}T${utc[2]}.${(utc[3] ?? '').padEnd(3, '0').slice(0, 3)}Z`;
  if (POSTGRES_OFFSET.test(value)) return parsePostgresTimestamp(value).toISOString();
  // Any other text (SQLite's datetime('now') has no milliseconds) is normalised through Date.
  return new Date(`${value.replace(' ', 'T')}Z`).toISOString();
}

/** As isoTimestamp, for a timestamp that may be missing. */
export function isoTimestampOrNull(value: Date | string | null): string | null {
  return value === null ? null : isoTimestamp(value);
}
