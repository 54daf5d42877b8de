/**
 * The change records of what an ingestion creates, made by the database from the ids of the
 * rows just written (INSERT ... SELECT). They keep no copy of the object (`after` NULL): it is
 * read from its row until its first recorded change (src/changes/creation-sql.ts).
 */

import type { Dialect } from '../../database/dialect/dialect.js';

/** The record columns every statement writes, in this order. */
export const CHANGE_INSERT = `INSERT INTO changes (id, time, action, object_type, object_id, change_set_id, before, after)`;

/** The run's change set: actor (user id, email, key id, key prefix), request id, run id. */
export const CHANGE_SET_INSERT = `INSERT INTO change_sets (actor_user_id, actor_email, actor_api_key_id, actor_api_key_prefix, request_id, run_id) VALUES (?, ?, ?, ?, ?, ?) RETURNING id`;

/**
 * The statement recording the creation of the `table` rows whose ids are its last parameters
 * (Dialect.createdRecordsSelect says the parameters).
 */
export function createdRecordsSql(
  dialect: Dialect,
  table: 'assets' | 'relations',
  count: number,
): string {
  const objectType = table === 'assets' ? 'asset' : 'relation';
  return `${CHANGE_INSERT} ${dialect.createdRecordsSelect(objectType, table, count)}`;
}
