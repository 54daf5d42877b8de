import type { Type } from '@nestjs/common';
import type { FieldRule } from './field-rule.js';

/**
 * A base class with one property per field, in the order given, each decorated from its rule:
 * a DTO whose fields a rules table lists extends it, so that a new field of the table needs no
 * line of its own in the DTO, and a field without a rule does not compile. Properties the DTO
 * declares itself follow these in its schema.
 */
export function FieldsClass<T, F extends string>(
  fields: readonly F[],
  rules: Readonly<Record<F, FieldRule>>,
  decorate: (rule: FieldRule, field: F) => PropertyDecorator,
): Type<T> {
  abstract class Fields {}
  for (const field of fields) decorate(rules[field], field)(Fields.prototype, field);
  return Fields as unknown as Type<T>;
}
