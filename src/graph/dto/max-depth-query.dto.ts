import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { IsQueryInteger } from '../../common/validators/query-integer.validator.js';

export const MAX_WALK_DEPTH = 10;
export const DEFAULT_WALK_DEPTH = 6;

/** `maxDepth` of the walks that honour directions; extended by their query DTOs. */
export class MaxDepthQueryDto {
  @IsOptional()
  @IsQueryInteger(1, MAX_WALK_DEPTH)
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: MAX_WALK_DEPTH,
    default: DEFAULT_WALK_DEPTH,
    description: 'Most hops walked; plain digits only',
    example: 4,
  })
  maxDepth: number = DEFAULT_WALK_DEPTH;
}
