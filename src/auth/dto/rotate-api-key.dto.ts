import { integerRule } from '../../common/field-rules/field-rule.js';
import { Field } from '../../common/field-rules/field.decorator.js';

export const MAX_GRACE_SECONDS = 86_400;
export const DEFAULT_GRACE_SECONDS = 3600;

export class RotateApiKeyDto {
  @Field(integerRule(0, MAX_GRACE_SECONDS), {
    required: false,
    // No schema default: a generated client would then require the property.
    description: `How long the old key keeps working, in seconds (0: it stops at once; ${DEFAULT_GRACE_SECONDS} when left out); its expiry never moves later`,
  })
  graceSeconds?: number;
}
