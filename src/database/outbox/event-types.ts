// The web UI imports this file (web/src/api.ts): it stays free of imports.
/** The events a webhook may subscribe to. */
export const EVENT_TYPES = [
  'asset.created',
  'asset.deleted',
  'finding.opened',
  'finding.reopened',
  'finding.fixed',
  'finding.overdue',
  'run.succeeded',
  'run.rejected',
  'run.failed',
  'feed.late',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** The event a ping queues: sent to the one webhook pinged, whatever it subscribes to. */
export const PING_EVENT = 'ping';

/** What a webhook's `filter` may narrow its events by; each given condition must hold. */
export interface WebhookFilter {
  /** Finding events only: the finding's score is at least this. */
  minScore?: number;
  /** The event's asset's (or run's, or feed's) source is one of these. */
  sources?: string[];
  /** The event's asset's site is one of these. */
  sites?: string[];
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export const DELIVERY_STATUSES: readonly DeliveryStatus[] = ['pending', 'delivered', 'failed'];
