import type { IdempotencyKey } from '../entities/idempotency-key.entity.js';
import type { InsertColumn } from '../ingest-sql.js';
import { integer, text, timestamp } from './column-table.js';

/**
 * The idempotency_keys table: the column of each property of the entity, in the table's order.
 * The compiler holds it to the entity; the answer kept in an ingestion's transaction is
 * written through it.
 */
export const IDEMPOTENCY_KEY_COLUMNS = {
  caller: text('caller'),
  key: text('key'),
  bodyHash: text('body_hash'),
  runId: text('run_id'),
  status: integer('status'),
  answer: text('answer'),
  createdAt: timestamp('created_at'),
  expiresAt: timestamp('expires_at'),
} as const satisfies { [P in keyof IdempotencyKey]-?: InsertColumn };
