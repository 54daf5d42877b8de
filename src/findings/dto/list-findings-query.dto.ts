import { ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { PageQueryDto } from '../../common/dto/page-query.dto.js';
import { FINDING_SORT_FIELDS } from '../../common/field-rules/finding-values.js';
import { FindingFiltersQueryDto } from './finding-filters-query.dto.js';

const SORT_VALUES = FINDING_SORT_FIELDS.flatMap((field) => [field, `-${field}`]);

/** Query of GET /api/findings: paging (`limit` 1 to 1000, default 100; `offset`), filters, order. */
export class ListFindingsQueryDto extends IntersectionType(PageQueryDto, FindingFiltersQueryDto) {
  /** A field, `-` in front for descending. */
  @IsOptional()
  @IsIn(SORT_VALUES, { message: `sort must be one of ${SORT_VALUES.join(', ')}` })
  @ApiPropertyOptional({
    enum: SORT_VALUES,
    description:
      'A field, `-` in front for descending; missing values (no score, not fixed, no due date for severity none) sort last either way. Default: -score, then id',
    example: 'dueAt',
  })
  sort?: string;
}
