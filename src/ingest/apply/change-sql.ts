/**
 * The change records of what an ingestion creates, made by the database from the ids of the
 * rows just written (INSERT ... SELECT). They keep no copy of the object (`after` NULL): it is
 * read from its row until its first recorded change (src/changes/creation-sql.ts).
 */

import type { IngestSql } from '../ingest-sql.js';

/** The record columns every statement writes, in this order. */
export const CHANGE_INSERT = `INSERT INTO changes (id, time, action, object_type, object_id, change_set_id, before, after)`;

/** The run's change set: actor (user id, email, key id, key prefix), request id, run id. */
export const CHANGE_SET_INSERT = `INSERT INTO change_sets (actor_user_id, actor_email, actor_api_key_id, actor_api_key_prefix, request_id, run_id) VALUES (?, ?, ?, ?, ?, ?) RETURNING id`;

// Each statement's parameters, in order: the ids' prefix, the counter before the first, the
// time, the change set's id, then the ids of the rows.

const SQLITE_ID = `? || printf('%012x', ? + ROW_NUMBER() OVER (ORDER BY x.rowid))`;
const POSTGRES_ID = `? || lpad(to_hex(CAST(? AS bigint) + ROW_NUMBER() OVER ()), 12, '0')`;

/**
 * The statement recording the creation of the `table` rows whose ids are its last parameters
 * (one each on SQLite, one array on PostgreSQL).
 */
export function createdRecordsSql(
  dialect: IngestSql['dialect'],
  table: 'assets' | 'relations',
  count: number,
): string {
  const objectType = table === 'assets' ? 'asset' : 'relation';
  if (dialect === 'sqlite') {
    return `${CHANGE_INSERT} SELECT ${SQLITE_ID}, ?, 'create', '${objectType}', x.id,
    ?, NULL, NULL
    FROM ${table} x WHERE x.id IN (${new Array<string>(count).fill('?').join(', ')})`;
  }
  return `${CHANGE_INSERT} SELECT ${POSTGRES_ID}, CAST(? AS timestamptz), 'create', '${objectType}', x.id,
    CAST(? AS integer), NULL, NULL
    FROM ${table} x WHERE x.id = ANY(CAST(? AS text[]))`;
}
