import { Module } from '@nestjs/common';
import { DeliveryDispatcher } from './delivery/delivery-dispatcher.service.js';
import { DeliveryMetrics } from './delivery/delivery-metrics.js';
import { WebhookResolver } from './delivery/webhook-resolver.js';
import { WebhookTargets } from './delivery/webhook-targets.js';
import { EventChecks } from './event-checks.service.js';
import { SourcesController } from './sources.controller.js';
import { SourcesService } from './sources.service.js';
import { WebhooksController } from './webhooks.controller.js';
import { WebhooksService } from './webhooks.service.js';

/**
 * Events: webhooks and their signed deliveries from the outbox (which the writes fill, through
 * the data layer), and the feeds with their cadence (GET /api/sources, feed.late).
 */
@Module({
  controllers: [WebhooksController, SourcesController],
  providers: [
    WebhookResolver,
    WebhookTargets,
    WebhooksService,
    DeliveryMetrics,
    DeliveryDispatcher,
    SourcesService,
    EventChecks,
  ],
})
export class EventsModule {}
