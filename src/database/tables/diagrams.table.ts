import type { Diagram } from '../entities/diagram.entity.js';
import type { InsertColumn } from '../ingest-sql.js';
import { text, timestamp } from './column-table.js';

/**
 * The diagrams table: the column of each property of the entity (its owner reference aside), in
 * the table's order. The compiler holds it to the entity; the list's columns are derived from it.
 */
export const DIAGRAM_COLUMNS = {
  id: text('id'),
  name: text('name'),
  description: text('description'),
  visibility: text('visibility'),
  ownerId: text('owner_id'),
  content: text('content'),
  createdAt: timestamp('created_at'),
  updatedAt: timestamp('updated_at'),
} as const satisfies { [P in Exclude<keyof Diagram, 'owner'>]-?: InsertColumn };

/** A property of the diagram that the list reads. */
export type DiagramSummaryProperty = Exclude<keyof typeof DIAGRAM_COLUMNS, 'content'>;

/**
 * Every property but `content`, which the list leaves out and which may be a megabyte per row,
 * in the table's order.
 */
export const DIAGRAM_SUMMARY_PROPERTIES = (
  Object.keys(DIAGRAM_COLUMNS) as (keyof typeof DIAGRAM_COLUMNS)[]
).filter((property): property is DiagramSummaryProperty => property !== 'content');
