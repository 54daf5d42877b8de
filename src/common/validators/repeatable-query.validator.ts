import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsOptional, ValidateBy, type ValidationArguments } from 'class-validator';

/** The rule's name, by which the validation pipe lets such a parameter be given several times. */
export const REPEATABLE_QUERY_RULE = 'repeatableQueryValue';

/** Most values of one repeated parameter. */
export const MAX_QUERY_REPEATS = 32;

/**
 * An optional query parameter that may be given several times (`?tag=a&tag=b`): the list of its
 * values, each one that `read` understands; else a 400 naming the first bad one
 * (`tag must be ...`).
 */
export const IsRepeatableQueryValue = (read: (value: string) => unknown, what: string) =>
  applyDecorators(
    IsOptional(),
    Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? [value] : value)),
    ValidateBy({
      name: REPEATABLE_QUERY_RULE,
      validator: {
        validate: (value: unknown) =>
          Array.isArray(value) &&
          value.length <= MAX_QUERY_REPEATS &&
          value.every((item) => typeof item === 'string' && read(item) !== null),
        defaultMessage: (args?: ValidationArguments) => {
          const property = args?.property ?? 'value';
          const values: unknown = args?.value;
          if (Array.isArray(values) && values.length > MAX_QUERY_REPEATS)
            return `${property} may be given at most ${MAX_QUERY_REPEATS} times`;
          return `${property} must be ${what}`;
        },
      },
    }),
  );
