import { ApiPropertyOptional } from '@nestjs/swagger';

/** A webhook's filter, as the OpenAPI document shows it: each condition given must hold. */
export class WebhookFilterDto {
  @ApiPropertyOptional({
    minimum: 0,
    maximum: 10,
    description: "Finding events only: the finding's score is at least this",
  })
  minScore?: number;

  @ApiPropertyOptional({
    type: [String],
    maxItems: 100,
    description:
      "The event's asset's sources (a run's source, a late feed's name) hold one of these",
  })
  sources?: string[];

  @ApiPropertyOptional({
    type: [String],
    maxItems: 100,
    description: "The event's asset's site is one of these (events without a site never pass)",
  })
  sites?: string[];
}
