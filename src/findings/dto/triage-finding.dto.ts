import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsISO8601, ValidateIf } from 'class-validator';
import { enumRule, textRule } from '../../common/field-rules/field-rule.js';
import { Field } from '../../common/field-rules/field.decorator.js';
import {
  MAX_ACCEPTANCE_DAYS,
  MAX_REASON_LENGTH,
  TRIAGE_STATUSES,
  type TriageStatus,
} from '../../common/field-rules/finding-values.js';

/**
 * Body of PATCH /api/findings/:id. Each field is checked here on its own; which fields a status
 * needs or refuses, and how far ahead an acceptance may run, the service checks.
 */
export class TriageFindingDto {
  @Field(enumRule(TRIAGE_STATUSES, 'TriageStatus'), {
    description:
      '`false_positive` (needs reason), `accepted` (needs reason and acceptedUntil) or `open` (nothing else: undoes a triage)',
  })
  status: TriageStatus;

  @Field(textRule(1, MAX_REASON_LENGTH), {
    required: false,
    description: "The triage's words: required for false_positive and accepted, refused for open",
    example: 'Not reachable: the service is bound to localhost',
  })
  reason?: string;

  // Null is checked (and refused) like any other value, not skipped.
  @ValidateIf((_object: object, value: unknown) => value !== undefined)
  @IsISO8601(
    { strict: true, strictSeparator: true },
    { message: 'acceptedUntil must be an ISO 8601 timestamp' },
  )
  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    description: `For accepted only, and required there: in the future, at most ${MAX_ACCEPTANCE_DAYS} days ahead`,
    example: '2027-06-30T00:00:00Z',
  })
  acceptedUntil?: string;
}
