import { applyDecorators } from '@nestjs/common';
import { ApiProperty, type ApiPropertyOptions } from '@nestjs/swagger';
import { IsOptional, ValidateBy, type ValidationArguments } from 'class-validator';
import { SkipIfUndefined } from '../validators/skip-if-undefined.validator.js';
import { fieldProblem, fieldSchema, type FieldRule } from './field-rule.js';

/** The rule's check as a class-validator constraint, with the ingestion's messages. */
export const FollowsRule = (rule: FieldRule) =>
  ValidateBy({
    name: `${rule.kind}Field`,
    validator: {
      validate: (value: unknown) => fieldProblem(rule, value) === null,
      defaultMessage: (args?: ValidationArguments) =>
        `$property ${fieldProblem(rule, args?.value) ?? 'is invalid'}`,
    },
  });

/**
 * A DTO property checked by its rule and documented from it. A nullable rule makes the field
 * optional (null clears it); otherwise it is required unless `required: false`, and then it may
 * be left out but not nulled. Other options refine the OpenAPI schema.
 */
export const Field = (rule: FieldRule, options: ApiPropertyOptions = {}) => {
  const required = rule.nullable ? false : (options.required ?? true);
  const presence = rule.nullable ? [IsOptional()] : required ? [] : [SkipIfUndefined()];
  return applyDecorators(
    ...presence,
    FollowsRule(rule),
    ApiProperty({ ...fieldSchema(rule), ...options, required } as ApiPropertyOptions),
  );
};
