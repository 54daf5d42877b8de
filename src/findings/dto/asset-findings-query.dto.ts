import { OmitType } from '@nestjs/swagger';
import { ListFindingsQueryDto } from './list-findings-query.dto.js';

/** Query of GET /api/assets/:id/findings: the list's, but `assetId` (the path names the asset). */
export class AssetFindingsQueryDto extends OmitType(ListFindingsQueryDto, ['assetId'] as const) {}
