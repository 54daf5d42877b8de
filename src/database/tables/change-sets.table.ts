import type { ChangeSet } from '../entities/change-set.entity.js';
import type { InsertColumn } from '../ingest-sql.js';
import { ACTOR_COLUMNS } from './actor.table.js';
import { flatColumns, integer, text } from './column-table.js';

/**
 * The change_sets table: the column of each property of the entity, the actor's under `actor`,
 * in the table's order. The compiler holds it to the entity; the history's lists read the
 * origin of their records from it.
 */
export const CHANGE_SET_COLUMNS = {
  id: integer('id'),
  actor: ACTOR_COLUMNS,
  requestId: text('request_id'),
  runId: text('run_id'),
} as const satisfies {
  [P in keyof ChangeSet]-?: P extends 'actor' ? typeof ACTOR_COLUMNS : InsertColumn;
};

/** The columns of a write's origin: all but the generated id, in the table's order. */
export const CHANGE_SET_ORIGIN_COLUMNS = (({ id: _id, ...origin }) => origin)(CHANGE_SET_COLUMNS);

/** The columns a change set's insert writes, in the table's order. */
export const CHANGE_SET_INSERT_COLUMNS: InsertColumn[] =
  flatColumns<InsertColumn>(CHANGE_SET_ORIGIN_COLUMNS);
