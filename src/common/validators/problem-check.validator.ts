import { applyDecorators } from '@nestjs/common';
import { ValidateBy, type ValidationArguments } from 'class-validator';
import { SkipIfUndefined } from './skip-if-undefined.validator.js';

/**
 * A property checked by `problemOf` (the value and the property's name: null when the value is
 * valid, else what is wrong with it, as the message). May be left out, not nulled.
 */
export function ChecksProblem(
  name: string,
  problemOf: (value: unknown, property: string | undefined) => string | null,
) {
  const problem = (args?: ValidationArguments) => problemOf(args?.value, args?.property);
  return applyDecorators(
    SkipIfUndefined(),
    ValidateBy({
      name,
      validator: {
        validate: (_value: unknown, args?: ValidationArguments) => problem(args) === null,
        defaultMessage: (args?: ValidationArguments) => problem(args) ?? 'is invalid',
      },
    }),
  );
}
