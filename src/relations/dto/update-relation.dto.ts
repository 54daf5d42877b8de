import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsEnum, IsOptional } from 'class-validator';
import { IsOptionalText } from '../../common/validators/optional-text.validator.js';
import { PORT_LIST_PROPERTY } from '../../common/openapi/properties.js';
import { IsPortList } from '../../common/validators/port-list.validator.js';
import { OmittableButNotNull } from '../../common/validators/required-on-update.validator.js';
import { IsText } from '../../common/validators/text.validator.js';
import { RelationDirection } from '../relation.entity.js';

/** The ends of a relation are fixed: sourceAssetId and targetAssetId are refused here. */
export class UpdateRelationDto {
  @OmittableButNotNull()
  @IsText(64)
  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 64,
    description: 'Cannot be null',
    example: 'uplink',
  })
  type?: string;

  @OmittableButNotNull()
  @IsEnum(RelationDirection)
  @ApiPropertyOptional({
    enum: RelationDirection,
    enumName: 'RelationDirection',
    description: 'Cannot be null',
  })
  direction?: RelationDirection;

  @IsOptionalText(32)
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 32, example: 'tcp' })
  protocol?: string | null;

  @IsOptional()
  @IsPortList()
  @ApiPropertyOptional(PORT_LIST_PROPERTY)
  toPorts?: string | null;
}
