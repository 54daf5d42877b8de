import { applyDecorators } from '@nestjs/common';
import { IsOptional } from 'class-validator';
import { optionalTextRule, textRule } from '../field-rules/field-rule.js';
import { FollowsRule } from '../field-rules/field.decorator.js';

/** A required, non-empty string of at most `max` characters. */
export const IsText = (max = 255) => FollowsRule(textRule(1, max));

/** An optional string of at most `max` characters; null clears the value. */
export const IsOptionalText = (max = 255) =>
  applyDecorators(IsOptional(), FollowsRule(optionalTextRule(max)));
