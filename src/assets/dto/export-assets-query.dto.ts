import { IntersectionType, OmitType } from '@nestjs/swagger';
import { ExportFormatQueryDto } from '../../common/export/export-format.js';
import { ListAssetsQueryDto } from './list-assets-query.dto.js';

/** Query of GET /api/assets/export: the list's filters and sort, no paging, and the format. */
export class ExportAssetsQueryDto extends IntersectionType(
  OmitType(ListAssetsQueryDto, ['limit', 'offset', 'after'] as const),
  ExportFormatQueryDto,
) {}
