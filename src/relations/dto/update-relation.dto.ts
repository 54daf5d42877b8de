import { OmitType, PartialType } from '@nestjs/swagger';
import { CreateRelationDto } from './create-relation.dto.js';

/**
 * The ends of a relation are fixed: sourceAssetId and targetAssetId are refused here. A field
 * left out stays as it is; null clears protocol or toPorts and is refused for type and direction.
 */
export class UpdateRelationDto extends PartialType(
  OmitType(CreateRelationDto, ['sourceAssetId', 'targetAssetId']),
  { skipNullProperties: false },
) {}
