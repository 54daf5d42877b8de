import { IsEnum, IsOptional } from 'class-validator';
import { IsOptionalText } from '../../common/validators/optional-text.validator.js';
import { IsPortList } from '../../common/validators/port-list.validator.js';
import { OmittableButNotNull } from '../../common/validators/required-on-update.validator.js';
import { IsText } from '../../common/validators/text.validator.js';
import { RelationDirection } from '../relation.entity.js';

/** The ends of a relation are fixed: sourceAssetId and targetAssetId are refused here. */
export class UpdateRelationDto {
  @OmittableButNotNull()
  @IsText(64)
  type?: string;

  @OmittableButNotNull()
  @IsEnum(RelationDirection)
  direction?: RelationDirection;

  @IsOptionalText(32)
  protocol?: string | null;

  @IsOptional()
  @IsPortList()
  toPorts?: string | null;
}
