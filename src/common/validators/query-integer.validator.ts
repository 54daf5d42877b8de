import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';

/** A query parameter: only plain digits become a number ('', '1e1', ' 5' or a repeated parameter stay invalid). */
export const DigitsToNumber = () =>
  Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value,
  );

/**
 * An integer of the query string, from `min` to `max`, written in plain digits. Required as it
 * stands (a missing value is not an integer): add IsOptional for one with a default.
 */
export const IsQueryInteger = (min: number, max: number) =>
  applyDecorators(
    DigitsToNumber(),
    IsInt({ message: `$property must be an integer from ${min} to ${max}` }),
    Min(min, { message: `$property must be an integer from ${min} to ${max}` }),
    Max(max, { message: `$property must be an integer from ${min} to ${max}` }),
  );
