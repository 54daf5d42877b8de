import { ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsPageLimit,
  IsPageOffset,
  MAX_PAGE_OFFSET,
  MAX_PAGE_SIZE,
} from '../validators/paging.validator.js';

/** `limit` (default 100) and `offset` of a list that always pages; extended by its query DTO. */
export class PageQueryDto {
  /**
   * The query as PageQueryDto when it holds nothing but a valid `limit` and `offset` (each
   * optional), as the rules below take them; null for anything else, which the validation
   * pipe then checks in full, for its messages. A check of its own because class-transformer
   * and class-validator cost more than the rest of a small page's request (an asset's
   * history). Not inherited by the pipe: a subclass's rules are not these.
   */
  static quickCheck(this: void, query: unknown): PageQueryDto | null {
    if (query === null || typeof query !== 'object') return null;
    const page = new PageQueryDto();
    for (const [key, value] of Object.entries(query)) {
      const number =
        key === 'limit'
          ? digitsWithin(value, 1, MAX_PAGE_SIZE)
          : key === 'offset'
            ? digitsWithin(value, 0, MAX_PAGE_OFFSET)
            : null;
      if (number === null) return null;
      page[key as 'limit' | 'offset'] = number;
    }
    return page;
  }

  @IsPageLimit()
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: MAX_PAGE_SIZE,
    default: 100,
    description: 'Page size; plain digits only',
  })
  limit: number = 100;

  @IsPageOffset()
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: MAX_PAGE_OFFSET,
    default: 0,
    description: 'Items to skip; plain digits only',
  })
  offset: number = 0;
}

/** A query value in plain digits, from `min` to `max`, as a number; null for anything else. */
function digitsWithin(value: unknown, min: number, max: number): number | null {
  if (typeof value !== 'string' || !/^\d+$/.test(value)) return null;
  const number = Number(value);
  return number >= min && number <= max ? number : null;
}
