import { Field } from '../../common/field-rules/field.decorator.js';
import { RELATION_FIELDS } from '../../common/field-rules/inventory-fields.js';
import type { RelationDirection } from '../../common/field-rules/inventory-values.js';

export class CreateRelationDto {
  @Field(RELATION_FIELDS.sourceAssetId)
  sourceAssetId: string;

  @Field(RELATION_FIELDS.targetAssetId)
  targetAssetId: string;

  @Field(RELATION_FIELDS.type)
  type: string;

  @Field(RELATION_FIELDS.direction, { required: false })
  direction?: RelationDirection;

  @Field(RELATION_FIELDS.protocol)
  protocol?: string | null;

  @Field(RELATION_FIELDS.toPorts)
  toPorts?: string | null;
}
