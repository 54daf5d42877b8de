import { IsEnum, IsOptional } from 'class-validator';
import { IsOptionalText } from '../../common/validators/optional-text.validator.js';
import { IsPortList } from '../../common/validators/port-list.validator.js';
import { OmittableButNotNull } from '../../common/validators/required-on-update.validator.js';
import { IsText } from '../../common/validators/text.validator.js';
import { MAX_ASSET_ID_LENGTH } from '../../assets/asset.entity.js';
import { RelationDirection } from '../relation.entity.js';

export class CreateRelationDto {
  @IsText(MAX_ASSET_ID_LENGTH)
  sourceAssetId: string;

  @IsText(MAX_ASSET_ID_LENGTH)
  targetAssetId: string;

  @IsText(64)
  type: string;

  // Defaults to bi when left out; null is refused, a relation always has a direction.
  @OmittableButNotNull()
  @IsEnum(RelationDirection)
  direction?: RelationDirection;

  @IsOptionalText(32)
  protocol?: string | null;

  @IsOptional()
  @IsPortList()
  toPorts?: string | null;
}
