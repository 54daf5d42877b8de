import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsISO8601, IsOptional } from 'class-validator';
import { PageQueryDto } from '../../common/dto/page-query.dto.js';
import { IsText } from '../../common/validators/text.validator.js';
import {
  CHANGE_OBJECT_TYPES,
  type ChangeObjectType,
} from '../../database/entities/change.entity.js';

const TIMESTAMP = { strict: true, strictSeparator: true };

/** Query of GET /api/changes. */
export class ListChangesQueryDto extends PageQueryDto {
  @IsOptional()
  @IsIn(CHANGE_OBJECT_TYPES, {
    message: `objectType must be one of ${CHANGE_OBJECT_TYPES.join(', ')}`,
  })
  @ApiPropertyOptional({ enum: CHANGE_OBJECT_TYPES, enumName: 'ChangeObjectType' })
  objectType?: ChangeObjectType;

  @IsOptional()
  @IsText(200)
  @ApiPropertyOptional({ maxLength: 200, description: "The object's id, exact", example: 'web-01' })
  objectId?: string;

  @IsOptional()
  @IsText(36)
  @ApiPropertyOptional({ maxLength: 36, description: 'Changes by this user (actor.userId)' })
  actorId?: string;

  @IsOptional()
  @IsText(36)
  @ApiPropertyOptional({ maxLength: 36, description: 'Changes written by this ingestion run' })
  runId?: string;

  @IsOptional()
  @IsISO8601(TIMESTAMP, { message: 'since must be an ISO 8601 timestamp' })
  @ApiPropertyOptional({
    format: 'date-time',
    description: 'Changes at or after this time',
    example: '2026-11-01T00:00:00Z',
  })
  since?: string;

  @IsOptional()
  @IsISO8601(TIMESTAMP, { message: 'until must be an ISO 8601 timestamp' })
  @ApiPropertyOptional({
    format: 'date-time',
    description: 'Changes before this time',
    example: '2026-12-01T00:00:00Z',
  })
  until?: string;
}
