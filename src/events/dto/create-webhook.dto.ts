import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  IsArray,
  IsBoolean,
  IsIn,
  IsString,
  ValidateIf,
} from 'class-validator';
import { IsJsonObject } from '../../common/validators/json-object.validator.js';
import { SkipIfUndefined } from '../../common/validators/skip-if-undefined.validator.js';
import {
  EVENT_TYPES,
  type EventType,
  type WebhookFilter,
} from '../../database/outbox/event-types.js';
import { WebhookFilterDto } from './webhook-filter.dto.js';

/** Body of POST /api/webhooks. */
export class CreateWebhookDto {
  @IsString()
  @ApiProperty({
    maxLength: 2048,
    description:
      '`https://` (or `http://` with WEBHOOK_ALLOW_HTTP=true); a host resolving to a loopback, private or link-local address is refused unless WEBHOOK_ALLOW_PRIVATE=true',
    example: 'https://hooks.example.com/asset-map',
  })
  url: string;

  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(EVENT_TYPES.length * 4)
  @IsIn(EVENT_TYPES, {
    each: true,
    message: `each value in events must be one of ${EVENT_TYPES.join(', ')}`,
  })
  @ApiProperty({ enum: EVENT_TYPES, enumName: 'EventType', isArray: true, minItems: 1 })
  events: EventType[];

  // Null is no filter; its fields are checked by the service (webhooks.service.ts, filterOf).
  @ValidateIf((_object: object, value: unknown) => value !== undefined && value !== null)
  @IsJsonObject(8192)
  @ApiPropertyOptional({ type: () => WebhookFilterDto, nullable: true })
  filter?: WebhookFilter | null;

  @SkipIfUndefined()
  @IsBoolean()
  // No `default` in the document: generated clients would then require it.
  @ApiPropertyOptional({ description: 'true when left out' })
  enabled?: boolean;
}
