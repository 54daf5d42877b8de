import { PartialType } from '@nestjs/swagger';
import { CreateWebhookDto } from './create-webhook.dto.js';

/** Body of PUT /api/webhooks/:id: each field given replaces the stored one whole. */
export class UpdateWebhookDto extends PartialType(CreateWebhookDto, {
  skipNullProperties: false,
}) {}
