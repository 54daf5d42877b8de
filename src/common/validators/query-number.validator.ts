import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsOptional, ValidateBy } from 'class-validator';

/**
 * An optional number of the query string from `min` to `max`, written as plain decimal digits
 * with an optional fraction (`7`, `7.5`): no sign, exponent or spaces.
 */
export const IsQueryNumber = (min: number, max: number) =>
  applyDecorators(
    IsOptional(),
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'string' && /^\d+(\.\d+)?$/.test(value) ? Number(value) : value,
    ),
    ValidateBy({
      name: 'isQueryNumber',
      validator: {
        validate: (value: unknown) =>
          typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max,
        defaultMessage: () => `$property must be a number from ${min} to ${max}`,
      },
    }),
  );
