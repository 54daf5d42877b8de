import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { RELATION_FIELDS } from '../../common/field-rules/inventory-fields.js';
import { IsQueryInteger } from '../../common/validators/query-integer.validator.js';
import { IsText } from '../../common/validators/text.validator.js';
import { MaxDepthQueryDto } from './max-depth-query.dto.js';

const MAX_PORT = 65535;

/** Query of GET /api/assets/:id/reachable. */
export class ReachableQueryDto extends MaxDepthQueryDto {
  @IsQueryInteger(1, MAX_PORT)
  @ApiProperty({
    type: 'integer',
    minimum: 1,
    maximum: MAX_PORT,
    description:
      'Walk only the relations whose toPorts is empty or holds this port (listed, or within a listed range); plain digits only',
    example: 443,
  })
  port: number;

  @IsOptional()
  @IsText(RELATION_FIELDS.protocol.max)
  @ApiPropertyOptional({
    minLength: 1,
    maxLength: RELATION_FIELDS.protocol.max,
    description:
      'Walk only the relations whose protocol is empty or this one (exact); without it, any protocol',
    example: 'tcp',
  })
  protocol?: string;
}
