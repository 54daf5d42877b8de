import { ApiProperty } from '@nestjs/swagger';
import { DELIVERY_STATUSES, type DeliveryStatus } from '../../database/outbox/event-types.js';
import type { WebhookDelivery } from '../../database/entities/webhook-delivery.entity.js';

export class DeliveryResponse {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ description: "The event's id: the message's `id` and `webhook-id`" })
  eventId: string;

  @ApiProperty({ example: 'asset.created' })
  type: string;

  @ApiProperty({
    enum: DELIVERY_STATUSES,
    enumName: 'DeliveryStatus',
    description:
      'pending (to be sent, or again); delivered (answered 2xx); failed (retried 24 hours)',
    example: 'delivered',
  })
  status: DeliveryStatus;

  @ApiProperty({ type: 'integer', minimum: 0 })
  attempts: number;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  lastAttemptAt: string | null;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: "The last answer's status; null before any, or without one",
  })
  responseStatus: number | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When it is sent next; null once delivered or failed',
  })
  nextAttemptAt: string | null;
}

const iso = (value: Date | null) => (value === null ? null : value.toISOString());

export function toDeliveryResponse(delivery: WebhookDelivery): DeliveryResponse {
  return {
    id: delivery.id,
    eventId: delivery.eventId,
    type: delivery.type,
    status: delivery.status,
    attempts: delivery.attempts,
    lastAttemptAt: iso(delivery.lastAttemptAt),
    responseStatus: delivery.responseStatus,
    nextAttemptAt: iso(delivery.nextAttemptAt),
  };
}
