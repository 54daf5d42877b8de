import { IsOptional } from 'class-validator';
import { IsPageLimit, IsPageOffset } from '../../common/validators/paging.validator.js';
import { IsText } from '../../common/validators/text.validator.js';
import { MAX_ASSET_ID_LENGTH } from '../../assets/asset.entity.js';

/** Query of GET /api/relations; without `limit` every matching relation is returned. */
export class ListRelationsQueryDto {
  /** Relations with this asset at either end. */
  @IsOptional()
  @IsText(MAX_ASSET_ID_LENGTH)
  assetId?: string;

  @IsOptional()
  @IsText(64)
  type?: string;

  @IsPageLimit()
  limit?: number;

  @IsPageOffset()
  offset?: number;
}
