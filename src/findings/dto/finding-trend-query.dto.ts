import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { IsQueryInteger } from '../../common/validators/query-integer.validator.js';
import { FindingFiltersQueryDto } from './finding-filters-query.dto.js';

/** The trend's longest window: a year, leap day included. */
export const MAX_TREND_DAYS = 366;

/** Query of GET /api/findings/trend: the window, and the summary's filters. */
export class FindingTrendQueryDto extends FindingFiltersQueryDto {
  @IsOptional()
  @IsQueryInteger(1, MAX_TREND_DAYS)
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: MAX_TREND_DAYS,
    default: 90,
    description: 'UTC days in the trend, the last one today; plain digits only',
  })
  days: number = 90;
}
