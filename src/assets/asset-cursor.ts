import { Buffer } from 'node:buffer';
import { MAX_ASSET_ID_LENGTH } from '../common/field-rules/inventory-values.js';
import { InvalidInputError } from '../common/errors/invalid-input.error.js';
import type { AssetSortField } from '../common/field-rules/inventory-values.js';

/**
 * Where a page of the list ends, for `after`: the sort it was taken in, the last asset's sort
 * key as the database wrote it as text (null when missing) and its id. Opaque to clients:
 * base64url of JSON.
 */
export interface AssetCursor {
  sort: string;
  key: string | null;
  id: string;
}

/** Sort fields whose column is never null. */
const REQUIRED_KEYS = new Set<AssetSortField>(['name', 'createdAt', 'updatedAt']);
const TIMESTAMPS = new Set<AssetSortField>(['createdAt', 'updatedAt']);
// A timestamp as either database gives it as text: SQLite's stored text (ISO 8601, 'T' and 'Z'
// optional), the service's PostgreSQL rendering (microseconds, offset).
const TIMESTAMP =
  /^(\d{4})-(\d\d)-(\d\d)[ T](\d\d):(\d\d):(\d\d)(\.\d{1,6})?(Z|[+-]\d\d(:\d\d)?)?$/;
// Text no column holds: PostgreSQL refuses NUL in text, and would answer an error.
const CONTROL = /\p{Cc}/u;
const MAX_KEY_LENGTH = 255;

const INVALID = "after is not a cursor of this list (take it from the Link header's next link)";

export function encodeCursor(cursor: AssetCursor): string {
  return Buffer.from(JSON.stringify([cursor.sort, cursor.key, cursor.id])).toString('base64url');
}

/** The cursor `after`, checked against the request's sort; a 400 naming `after` otherwise. */
export function decodeCursor(after: string, sort: string, field: AssetSortField): AssetCursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(after, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidInputError(INVALID);
  }
  if (!Array.isArray(parsed) || parsed.length !== 3) throw new InvalidInputError(INVALID);
  const [cursorSort, key, id] = parsed as unknown[];
  if (cursorSort !== sort)
    throw new InvalidInputError(`after was taken in another sort than ${sort}`);
  if (typeof id !== 'string' || id.length === 0 || id.length > MAX_ASSET_ID_LENGTH)
    throw new InvalidInputError(INVALID);
  if (CONTROL.test(id)) throw new InvalidInputError(INVALID);
  if (key === null) {
    if (REQUIRED_KEYS.has(field)) throw new InvalidInputError(INVALID);
    return { sort, key, id };
  }
  if (typeof key !== 'string' || key.length > MAX_KEY_LENGTH || CONTROL.test(key))
    throw new InvalidInputError(INVALID);
  if (TIMESTAMPS.has(field) && !isTimestamp(key)) throw new InvalidInputError(INVALID);
  if (field === 'risk_score' && !/^-?\d{1,9}$/.test(key)) throw new InvalidInputError(INVALID);
  return { sort, key, id };
}

/** A timestamp the databases take: its fields in range, its day one of its month's. */
function isTimestamp(text: string): boolean {
  const match = TIMESTAMP.exec(text);
  if (!match) return false;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number);
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    year >= 1 &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    hour < 24 &&
    minute < 60 &&
    second < 60
  );
}
