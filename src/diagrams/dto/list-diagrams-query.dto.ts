import { ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsPageLimit,
  IsPageOffset,
  MAX_PAGE_OFFSET,
  MAX_PAGE_SIZE,
} from '../../common/validators/paging.validator.js';

/** Without `limit` every visible diagram from `offset` on is returned. */
export class ListDiagramsQueryDto {
  @IsPageLimit()
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: MAX_PAGE_SIZE,
    description: 'Page size; plain digits only. Without it every visible diagram is returned',
  })
  limit?: number;

  @IsPageOffset()
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: MAX_PAGE_OFFSET,
    default: 0,
    description: 'Diagrams to skip; plain digits only (applies without limit too)',
  })
  offset?: number;
}
