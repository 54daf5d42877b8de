import { ApiProperty } from '@nestjs/swagger';
import { EVENT_TYPES, type EventType } from '../../database/outbox/event-types.js';
import type { Webhook } from '../../database/entities/webhook.entity.js';
import { WebhookFilterDto } from './webhook-filter.dto.js';

export class WebhookResponse {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ example: 'https://hooks.example.com/asset-map' })
  url: string;

  @ApiProperty({ enum: EVENT_TYPES, enumName: 'EventType', isArray: true })
  events: EventType[];

  @ApiProperty({ type: () => WebhookFilterDto, nullable: true })
  filter: WebhookFilterDto | null;

  @ApiProperty()
  enabled: boolean;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Why the service disabled it (failing too long); null otherwise',
  })
  disabledReason: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt: string;
}

export class CreatedWebhookResponse extends WebhookResponse {
  @ApiProperty({
    description: 'The signing secret (`whsec_<base64>`), shown this once',
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  })
  secret: string;
}

export function toWebhookResponse(webhook: Webhook): WebhookResponse {
  return {
    id: webhook.id,
    url: webhook.url,
    events: webhook.events,
    filter: webhook.filter,
    enabled: webhook.enabled,
    disabledReason: webhook.disabledReason,
    createdAt: webhook.createdAt.toISOString(),
    updatedAt: webhook.updatedAt.toISOString(),
  };
}
