import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import {
  IsPageLimit,
  IsPageOffset,
  MAX_PAGE_OFFSET,
  MAX_PAGE_SIZE,
} from '../../common/validators/paging.validator.js';
import { RELATION_FIELDS } from '../../common/field-rules/inventory-fields.js';
import { IsText } from '../../common/validators/text.validator.js';

const { sourceAssetId: ASSET_ID, type: TYPE } = RELATION_FIELDS;

/** Query of GET /api/relations; without `limit` every matching relation is returned. */
export class ListRelationsQueryDto {
  /** Relations with this asset at either end. */
  @IsOptional()
  @IsText(ASSET_ID.max)
  @ApiPropertyOptional({
    minLength: 1,
    maxLength: ASSET_ID.max,
    description: 'Relations with this asset at either end',
    example: 'core-switch',
  })
  assetId?: string;

  @IsOptional()
  @IsText(TYPE.max)
  @ApiPropertyOptional({
    minLength: 1,
    maxLength: TYPE.max,
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
    maximum: MAX_PAGE_OFFSET,
    default: 0,
    description: 'Relations to skip; plain digits only (applies without limit too)',
  })
  offset?: number;
}
