import { IsIn, IsOptional } from 'class-validator';
import { IsOptionalText } from '../../common/validators/optional-text.validator.js';
import { IsPageLimit, IsPageOffset } from '../../common/validators/paging.validator.js';

export const ASSET_SORT_FIELDS = [
  'name',
  'ip',
  'type',
  'vendor',
  'site',
  'risk_score',
  'createdAt',
  'updatedAt',
] as const;
export type AssetSortField = (typeof ASSET_SORT_FIELDS)[number];
const SORT_VALUES = ASSET_SORT_FIELDS.flatMap((field) => [field, `-${field}`]);

export class ListAssetsQueryDto {
  @IsPageLimit()
  limit: number = 100;

  @IsPageOffset()
  offset: number = 0;

  /** Case-insensitive substring of name, ip, vendor, model, site, type or os_version. */
  @IsOptionalText()
  search?: string;

  @IsOptionalText(64)
  type?: string;

  @IsOptionalText()
  site?: string;

  /** A field, `-` in front for descending. */
  @IsOptional()
  @IsIn(SORT_VALUES, { message: `sort must be one of ${SORT_VALUES.join(', ')}` })
  sort?: string;
}
