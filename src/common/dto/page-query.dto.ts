import { ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsPageLimit,
  IsPageOffset,
  MAX_PAGE_OFFSET,
  MAX_PAGE_SIZE,
} from '../validators/paging.validator.js';

/** `limit` (default 100) and `offset` of a list that always pages; extended by its query DTO. */
export class PageQueryDto {
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
