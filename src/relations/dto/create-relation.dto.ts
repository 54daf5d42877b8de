import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEnum, IsOptional } from 'class-validator';
import { IsOptionalText } from '../../common/validators/optional-text.validator.js';
import { PORT_LIST_PROPERTY } from '../../common/openapi/properties.js';
import { IsPortList } from '../../common/validators/port-list.validator.js';
import { OmittableButNotNull } from '../../common/validators/required-on-update.validator.js';
import { IsText } from '../../common/validators/text.validator.js';
import { MAX_ASSET_ID_LENGTH } from '../../assets/asset.entity.js';
import { RelationDirection } from '../relation.entity.js';

export class CreateRelationDto {
  @IsText(MAX_ASSET_ID_LENGTH)
  @ApiProperty({
    minLength: 1,
    maxLength: MAX_ASSET_ID_LENGTH,
    description: 'The id of an existing asset',
    example: 'web-01',
  })
  sourceAssetId: string;

  @IsText(MAX_ASSET_ID_LENGTH)
  @ApiProperty({
    minLength: 1,
    maxLength: MAX_ASSET_ID_LENGTH,
    description: 'The id of an existing asset, other than sourceAssetId',
    example: 'core-switch',
  })
  targetAssetId: string;

  @IsText(64)
  @ApiProperty({ minLength: 1, maxLength: 64, example: 'uplink' })
  type: string;

  // Defaults to bi when left out; null is refused, a relation always has a direction.
  @OmittableButNotNull()
  @IsEnum(RelationDirection)
  @ApiPropertyOptional({
    enum: RelationDirection,
    enumName: 'RelationDirection',
    default: RelationDirection.Bi,
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
