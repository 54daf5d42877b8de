import { Field } from '../../common/field-rules/field.decorator.js';
import { ASSET_ID_RULE } from '../../common/field-rules/inventory-fields.js';
import { MaxDepthQueryDto } from './max-depth-query.dto.js';

/** Query of GET /api/graph/path. */
export class PathQueryDto extends MaxDepthQueryDto {
  @Field(ASSET_ID_RULE, {
    description: 'The id of the asset the walk starts from',
    example: 'web-01',
  })
  from: string;

  @Field(ASSET_ID_RULE, { description: 'The id of the asset the walk ends at', example: 'db-01' })
  to: string;
}
