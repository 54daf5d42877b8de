import type { Relation, RelationDirection } from '../relation.entity.js';

export class RelationResponse {
  id: string;
  sourceAssetId: string;
  targetAssetId: string;
  type: string;
  direction: RelationDirection;
  protocol: string | null;
  toPorts: string | null;
  createdAt: string;
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
