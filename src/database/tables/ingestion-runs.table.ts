import type { IngestionRun } from '../entities/ingestion-run.entity.js';
import { ACTOR_COLUMNS } from './actor.table.js';
import { boolean, integer, json, text, timestamp, type TableColumn } from './column-table.js';

/**
 * The ingestion_runs table: the column of each property of the entity, the actor's under
 * `actor`, in the table's order, typed as a statement binds them. The compiler holds it to the
 * entity; the run's row written in an ingestion's transaction is derived from it.
 */
export const RUN_COLUMNS = {
  id: text('id'),
  status: text('status'),
  dryRun: boolean('dry_run'),
  format: text('format'),
  mode: text('mode'),
  source: text('source'),
  deleteStale: boolean('delete_stale'),
  actor: ACTOR_COLUMNS,
  requestId: text('request_id'),
  bodyBytes: integer('body_bytes'),
  instanceId: integer('instance_id'),
  startedAt: timestamp('started_at'),
  finishedAt: timestamp('finished_at'),
  stats: json('stats'),
  error: text('error'),
} as const satisfies {
  [P in keyof IngestionRun]-?: P extends 'actor' ? typeof ACTOR_COLUMNS : TableColumn;
};
