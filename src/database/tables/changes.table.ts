import type { Change } from '../entities/change.entity.js';
import type { InsertColumn } from '../ingest-sql.js';
import { integer, longText, text, timestamp } from './column-table.js';

/**
 * The changes table: the column of each property of the entity, in the table's order, typed as
 * bulk inserts type it. The compiler holds it to the entity; the history's lists read their
 * columns from it.
 */
export const CHANGE_COLUMNS = {
  id: text('id'),
  time: timestamp('time'),
  action: text('action'),
  objectType: text('object_type'),
  objectId: text('object_id'),
  changeSetId: integer('change_set_id'),
  before: longText('before'),
  after: longText('after'),
} as const satisfies { [P in keyof Change]-?: InsertColumn };

/** Every column, in the table's order: what an insert of a whole record writes. */
export const CHANGE_INSERT_COLUMNS: InsertColumn[] = Object.values(CHANGE_COLUMNS);
