import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import {
  IsPageLimit,
  IsPageOffset,
  MAX_PAGE_SIZE,
} from '../../common/validators/paging.validator.js';
import { IsText } from '../../common/validators/text.validator.js';
import { MAX_ASSET_ID_LENGTH } from '../../assets/asset.entity.js';

/** Query of GET /api/relations; without `limit` every matching relation is returned. */
export class ListRelationsQueryDto {
  /** Relations with this asset at either end. */
  @IsOptional()
  @IsText(MAX_ASSET_ID_LENGTH)
  @ApiPropertyOptional({
    minLength: 1,
    maxLength: MAX_ASSET_ID_LENGTH,
    description: 'Relations with this asset at either end',
    example: 'core-switch',
  })
  assetId?: string;

  @IsOptional()
  @IsText(64)
  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 64,
    description: 'Exact type',
    example: 'uplink',
  })
  type?: string;

  @IsPageLimit()
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: MAX_PAGE_SIZE,
    description: 'Page size; plain digits only. Without it every matching relation is returned',
  })
  limit?: number;

  @IsPageOffset()
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    default: 0,
    description: 'Relations to skip; plain digits only (applies without limit too)',
  })
  offset?: number;
}
