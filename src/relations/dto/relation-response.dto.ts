import { ApiProperty } from '@nestjs/swagger';
import { type Relation } from '../../database/entities/relation.entity.js';
import { RelationDirection } from '../../common/field-rules/inventory-values.js';

export class RelationResponse {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ example: 'web-01' })
  sourceAssetId: string;

  @ApiProperty({ example: 'core-switch' })
  targetAssetId: string;

  @ApiProperty({ example: 'uplink' })
  type: string;

  @ApiProperty({ enum: RelationDirection, enumName: 'RelationDirection', example: 'bi' })
  direction: RelationDirection;

  @ApiProperty({ type: String, nullable: true, example: 'tcp' })
  protocol: string | null;

  @ApiProperty({ type: String, nullable: true, example: '443,8000-8080' })
  toPorts: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt: string;
}

export function toRelationResponse(relation: Relation): RelationResponse {
  return {
    id: relation.id,
    sourceAssetId: relation.sourceAssetId,
    targetAssetId: relation.targetAssetId,
    type: relation.type,
    direction: relation.direction,
    protocol: relation.protocol,
    toPorts: relation.toPorts,
    createdAt: relation.createdAt.toISOString(),
    updatedAt: relation.updatedAt.toISOString(),
  };
}
