import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { DeliveryStatus } from '../outbox/event-types.js';

/**
 * One event to send to one webhook, and how its sending went. No foreign keys: a webhook's
 * deliveries are deleted with it (WebhooksRepository.delete), and an event once none is left.
 */
@Entity('webhook_deliveries')
// The senders' claim, a webhook at a time: its pending ones, in order, without reading its
// delivered ones or another webhook's backlog; the queue's depth, webhook by webhook.
@Index(['webhookId', 'status', 'id'])
// A webhook's deliveries, newest first.
@Index(['webhookId', 'id'])
@Index(['eventId'])
export class WebhookDelivery {
  /** A UUIDv7: the order of the events, within a write and across writes. */
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'webhook_id', type: 'varchar', length: 36 })
  webhookId: string;

  @Column({ name: 'event_id', type: 'varchar', length: 36 })
  eventId: string;

  @Column({ type: 'varchar', length: 32 })
  type: string;

  @Column({ type: 'varchar', length: 16 })
  status: DeliveryStatus;

  @Column({ type: 'integer' })
  attempts: number;

  @Column({ name: 'created_at', type: Date })
  createdAt: Date;

  @Column({ name: 'last_attempt_at', type: Date, nullable: true })
  lastAttemptAt: Date | null;

  @Column({ name: 'response_status', type: 'integer', nullable: true })
  responseStatus: number | null;

  /** Why the last attempt failed, when it got no answer (a timeout, a refused address). */
  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError: string | null;

  /** When it is due; null once delivered or failed. */
  @Column({ name: 'next_attempt_at', type: Date, nullable: true })
  nextAttemptAt: Date | null;
}
