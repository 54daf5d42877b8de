import { IntersectionType, OmitType } from '@nestjs/swagger';
import { ExportFormatQueryDto } from '../../common/export/export-format.js';
import { ListFindingsQueryDto } from './list-findings-query.dto.js';

/** Query of GET /api/findings/export: the list's filters and sort, no paging, and the format. */
export class ExportFindingsQueryDto extends IntersectionType(
  OmitType(ListFindingsQueryDto, ['limit', 'offset'] as const),
  ExportFormatQueryDto,
) {}
