import type { WebhookDelivery } from '../entities/webhook-delivery.entity.js';
import type { InsertColumn } from '../ingest-sql.js';
import { integer, text, timestamp } from './column-table.js';

/** The webhook_deliveries table, in its order: what the outbox's inserts write. */
export const WEBHOOK_DELIVERY_COLUMNS = {
  id: text('id'),
  webhookId: text('webhook_id'),
  eventId: text('event_id'),
  type: text('type'),
  status: text('status'),
  attempts: integer('attempts'),
  createdAt: timestamp('created_at'),
  lastAttemptAt: timestamp('last_attempt_at'),
  responseStatus: integer('response_status'),
  lastError: text('last_error'),
  nextAttemptAt: timestamp('next_attempt_at'),
} as const satisfies { [P in keyof WebhookDelivery]-?: InsertColumn };

export const WEBHOOK_DELIVERY_INSERT_COLUMNS: InsertColumn[] =
  Object.values(WEBHOOK_DELIVERY_COLUMNS);
