import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { RELATION_FIELDS } from '../../common/field-rules/inventory-fields.js';
import { IsQueryInteger } from '../../common/validators/query-integer.validator.js';
import { IsText } from '../../common/validators/text.validator.js';

export const MAX_GRAPH_DEPTH = 5;

/** Query of GET /api/assets/:id/graph. */
export class GraphQueryDto {
  @IsOptional()
  @IsQueryInteger(1, MAX_GRAPH_DEPTH)
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: MAX_GRAPH_DEPTH,
    default: 1,
    description: 'Hops from the asset, walking relations either way; plain digits only',
    example: 2,
  })
  depth: number = 1;

  @IsOptional()
  @IsText(RELATION_FIELDS.type.max)
  @ApiPropertyOptional({
    minLength: 1,
    maxLength: RELATION_FIELDS.type.max,
    description: 'Walk only the relations of this type (exact)',
    example: 'uplink',
  })
  type?: string;
}
