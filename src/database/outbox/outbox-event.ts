import type { EventType, WebhookFilter } from './event-types.js';

/** An event as a write hands it to the outbox: its message's data and what filters read. */
export interface OutboxEvent {
  type: EventType;
  /** The message's `data`: the object as the API shows it. */
  data: object;
  /** The sources of its asset, or its run's or feed's; none for an asset entered by hand. */
  sources: readonly string[];
  /** Its asset's site; null when it has none, or is no asset's event. */
  site: string | null;
  /** A finding event's score; null otherwise. */
  score: number | null;
}

/** An enabled webhook as the outbox matches events against it. */
export interface Subscription {
  webhookId: string;
  events: ReadonlySet<string>;
  filter: WebhookFilter | null;
}

/**
 * Whether `subscription` takes `event`: of a type it subscribes to, and passing each condition
 * of its filter. `minScore` holds only finding events back; `sources` and `sites` hold back
 * every event that has none of them (a run's event has no site).
 */
export function takes(subscription: Subscription, event: OutboxEvent): boolean {
  if (!subscription.events.has(event.type)) return false;
  const { filter } = subscription;
  if (filter === null) return true;
  if (filter.minScore !== undefined && event.type.startsWith('finding.')) {
    if (event.score === null || event.score < filter.minScore) return false;
  }
  if (filter.sources !== undefined && !event.sources.some((s) => filter.sources!.includes(s)))
    return false;
  if (filter.sites !== undefined && (event.site === null || !filter.sites.includes(event.site)))
    return false;
  return true;
}

/** Whether any of `subscriptions` takes events of `type` (before the filter is read). */
export function subscribedTo(subscriptions: readonly Subscription[], type: EventType): boolean {
  return subscriptions.some((subscription) => subscription.events.has(type));
}
