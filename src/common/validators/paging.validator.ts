import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

export const MAX_PAGE_SIZE = 1000;
/**
 * Far beyond any real list, and well within what both databases take as an OFFSET: past 2^63 - 1
 * SQLite answers "datatype mismatch" and PostgreSQL "bigint out of range".
 */
export const MAX_PAGE_OFFSET = 2_147_483_647;

/** A query parameter: only plain digits become a number ('', '1e1', ' 5' or a repeated parameter stay invalid). */
export const DigitsToNumber = () =>
  Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value,
  );

const IsBoundedInteger = (min: number, max: number) =>
  applyDecorators(
    IsOptional(),
    DigitsToNumber(),
    IsInt({ message: '$property must be an integer' }),
    Min(min, { message: `$property must be an integer from ${min} to ${max}` }),
    Max(max, { message: `$property must be an integer from ${min} to ${max}` }),
  );

/** `limit` of a list's query string: an integer from 1 to MAX_PAGE_SIZE. */
export const IsPageLimit = () => IsBoundedInteger(1, MAX_PAGE_SIZE);

/** `offset` of a list's query string: an integer from 0 to MAX_PAGE_OFFSET. */
export const IsPageOffset = () => IsBoundedInteger(0, MAX_PAGE_OFFSET);
