import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

export const MAX_PAGE_SIZE = 1000;

// Only plain digits become a number: '', '1e1', ' 5' or a repeated parameter stay invalid.
const DigitsToNumber = () =>
  Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value,
  );

/** `limit` of a list's query string: an integer from 1 to 1000. */
export const IsPageLimit = () =>
  applyDecorators(
    IsOptional(),
    DigitsToNumber(),
    IsInt({ message: '$property must be an integer' }),
    Min(1),
    Max(MAX_PAGE_SIZE),
  );

/** `offset` of a list's query string: an integer from 0. */
export const IsPageOffset = () =>
  applyDecorators(
    IsOptional(),
    DigitsToNumber(),
    IsInt({ message: '$property must be an integer' }),
    Min(0),
  );
