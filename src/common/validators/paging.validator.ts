import { applyDecorators } from '@nestjs/common';
import { IsOptional } from 'class-validator';
import { IsQueryInteger } from './query-integer.validator.js';

export const MAX_PAGE_SIZE = 1000;
/**
 * Far beyond any real list, and well within what both databases take as an OFFSET: past 2^63 - 1
 * SQLite answers "datatype mismatch" and PostgreSQL "bigint out of range".
 */
export const MAX_PAGE_OFFSET = 2_147_483_647;

const IsBoundedInteger = (min: number, max: number) =>
  applyDecorators(IsOptional(), IsQueryInteger(min, max));

/** `limit` of a list's query string: an integer from 1 to MAX_PAGE_SIZE. */
export const IsPageLimit = () => IsBoundedInteger(1, MAX_PAGE_SIZE);

/** `offset` of a list's query string: an integer from 0 to MAX_PAGE_OFFSET. */
export const IsPageOffset = () => IsBoundedInteger(0, MAX_PAGE_OFFSET);
