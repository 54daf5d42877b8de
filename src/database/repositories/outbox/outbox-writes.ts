import { timeOrderedId } from '../../../common/ids/time-ordered-id.js';
import type { IngestSql } from '../../ingest-sql.js';
import type { EventType, WebhookFilter } from '../../outbox/event-types.js';
import { takes, type OutboxEvent, type Subscription } from '../../outbox/outbox-event.js';
import { WEBHOOK_DELIVERY_INSERT_COLUMNS } from '../../tables/webhook-deliveries.table.js';
import { WEBHOOK_EVENT_INSERT_COLUMNS } from '../../tables/webhook-events.table.js';

/** The enabled webhooks, as the outbox reads them in a write's transaction. */
export const SUBSCRIPTIONS_SELECT = 'SELECT id, events, filter FROM webhooks WHERE enabled = ?';

interface SubscriptionRow {
  id: string;
  events: string;
  filter: string | null;
}

/**
 * Messages' bodies at `time`: the JSON a webhook is sent, and signed over,
 * `{"id", "type", "timestamp", "data"}`. The timestamp, shared by a write's events, is written
 * once; only each one's id, type and data are made into JSON.
 */
function bodiesAt(time: Date): (id: string, type: string, data: object) => string {
  const timestamp = JSON.stringify(time.toISOString());
  return (id, type, data) =>
    `{"id":${JSON.stringify(id)},"type":${JSON.stringify(type)},"timestamp":${timestamp},"data":${JSON.stringify(data)}}`;
}

/** A new delivery's row (WEBHOOK_DELIVERY_COLUMNS' order): pending, due at once. */
function pendingDelivery(webhookId: string, eventId: string, type: string, time: unknown) {
  return [timeOrderedId(), webhookId, eventId, type, 'pending', 0, time, null, null, null, time];
}

/**
 * The outbox's writes in a write's transaction (`sql`: a route's unit or an ingestion's): the
 * events the enabled webhooks take, each with a pending delivery to each of them. An event no
 * webhook takes is not written. Ids are UUIDv7, made in order: the deliveries' order is the
 * events'.
 */
export class OutboxWrites {
  constructor(private readonly sql: IngestSql) {}

  /** The enabled webhooks, read in the transaction. */
  async subscriptions(): Promise<Subscription[]> {
    // 1: a boolean as both databases bind it (boundValue).
    const rows = await this.sql.all<SubscriptionRow>(SUBSCRIPTIONS_SELECT, [1]);
    return rows.map((row) => ({
      webhookId: row.id,
      events: new Set(JSON.parse(row.events) as EventType[]),
      filter: row.filter === null ? null : (JSON.parse(row.filter) as WebhookFilter),
    }));
  }

  /** Writes `events` for the `subscriptions` that take them, at `now`; answers how many. */
  async write(
    subscriptions: readonly Subscription[],
    events: Iterable<OutboxEvent>,
    now: Date,
  ): Promise<number> {
    if (subscriptions.length === 0) return 0;
    const time = this.sql.timestamp(now);
    const body = bodiesAt(now);
    const deliveries: unknown[][] = [];
    const rows = function* (): Generator<unknown[]> {
      for (const event of events) {
        let id: string | null = null;
        for (const subscription of subscriptions) {
          if (!takes(subscription, event)) continue;
          id ??= timeOrderedId();
          deliveries.push(pendingDelivery(subscription.webhookId, id, event.type, time));
        }
        if (id !== null) yield [id, event.type, time, body(id, event.type, event.data)];
      }
    };
    const written = await this.sql.insert('webhook_events', WEBHOOK_EVENT_INSERT_COLUMNS, rows());
    await this.sql.insert('webhook_deliveries', WEBHOOK_DELIVERY_INSERT_COLUMNS, deliveries);
    return written;
  }

  /** A ping to one webhook, whatever it subscribes to. */
  async ping(webhookId: string, now: Date): Promise<void> {
    const time = this.sql.timestamp(now);
    const id = timeOrderedId();
    await this.sql.insert('webhook_events', WEBHOOK_EVENT_INSERT_COLUMNS, [
      [id, 'ping', time, bodiesAt(now)(id, 'ping', { webhookId })],
    ]);
    await this.sql.insert('webhook_deliveries', WEBHOOK_DELIVERY_INSERT_COLUMNS, [
      pendingDelivery(webhookId, id, 'ping', time),
    ]);
  }
}
