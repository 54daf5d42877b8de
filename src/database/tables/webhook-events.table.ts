import type { WebhookEvent } from '../entities/webhook-event.entity.js';
import type { InsertColumn } from '../ingest-sql.js';
import { longText, text, timestamp } from './column-table.js';

/** The webhook_events table, in its order: what the outbox's inserts write. */
export const WEBHOOK_EVENT_COLUMNS = {
  id: text('id'),
  type: text('type'),
  createdAt: timestamp('created_at'),
  body: longText('body'),
} as const satisfies { [P in keyof WebhookEvent]-?: InsertColumn };

export const WEBHOOK_EVENT_INSERT_COLUMNS: InsertColumn[] = Object.values(WEBHOOK_EVENT_COLUMNS);
