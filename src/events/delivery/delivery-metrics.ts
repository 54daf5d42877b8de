import { Injectable } from '@nestjs/common';
import { Counter, Gauge } from 'prom-client';
import { WebhooksRepository } from '../../database/repositories/webhooks.repository.js';
import { MetricsService } from '../../metrics/metrics.service.js';

/** How an attempt ended, as the metrics count it. */
export type DeliveryOutcome = 'delivered' | 'retried' | 'failed';

/**
 * Deliveries by outcome, counted as they end; the queue's depth and the age of its oldest
 * pending delivery, read from the outbox when scraped.
 */
@Injectable()
export class DeliveryMetrics {
  private readonly attempts: Counter<'outcome'>;

  constructor(metrics: MetricsService, webhooks: WebhooksRepository) {
    const registers = [metrics.registry];
    this.attempts = new Counter({
      name: 'assetmap_webhook_deliveries_total',
      help: 'Webhook delivery attempts by outcome: delivered, retried (to be sent again), failed (for good)',
      labelNames: ['outcome'],
      registers,
    });
    let queue: ReturnType<WebhooksRepository['queue']> | null = null;
    // One read per scrape for both gauges.
    const read = () => {
      queue ??= webhooks.queue().finally(() => {
        setImmediate(() => {
          queue = null;
        });
      });
      return queue;
    };
    new Gauge({
      name: 'assetmap_webhook_queue_depth',
      help: 'Deliveries pending to enabled webhooks',
      registers,
      async collect() {
        this.set((await read()).pending);
      },
    });
    new Gauge({
      name: 'assetmap_webhook_oldest_pending_seconds',
      help: 'Age of the oldest delivery pending to an enabled webhook (0 when none)',
      registers,
      async collect() {
        const oldest = (await read()).oldestPendingAt;
        this.set(oldest === null ? 0 : Math.max(0, (Date.now() - oldest.getTime()) / 1000));
      },
    });
  }

  count(outcome: DeliveryOutcome, attempts = 1): void {
    this.attempts.inc({ outcome }, attempts);
  }
}
