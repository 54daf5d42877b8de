import { Injectable } from '@nestjs/common';
import type { ChangeOrigin } from '../database/history/change-origin.js';
import {
  RelationsRepository,
  type RelationChanges,
} from '../database/repositories/relations.repository.js';
import { InventoryWriter } from '../database/writer/inventory-writer.js';
import { InvalidInputError } from '../common/errors/invalid-input.error.js';
import { NotFoundError } from '../common/errors/not-found.error.js';
import { toRelationResponse, type RelationResponse } from './dto/relation-response.dto.js';
import type { CreateRelationDto } from './dto/create-relation.dto.js';
import type { ListRelationsQueryDto } from './dto/list-relations-query.dto.js';
import type { UpdateRelationDto } from './dto/update-relation.dto.js';
import type { Relation } from '../database/entities/relation.entity.js';
import { RelationDirection } from '../common/field-rules/inventory-values.js';
import { timeOrderedId } from '../common/ids/time-ordered-id.js';

export interface RelationPage {
  relations: Relation[];
  /** Every relation matching the filters, before paging. */
  total: number;
}

function relationNotFound(id: string): NotFoundError {
  return new NotFoundError(`relation ${id} not found`);
}

@Injectable()
export class RelationsService {
  constructor(
    private readonly relations: RelationsRepository,
    private readonly writer: InventoryWriter,
  ) {}

  findById(id: string): Promise<Relation | null> {
    return this.relations.findById(id);
  }

  async getById(id: string): Promise<Relation> {
    const relation = await this.findById(id);
    if (!relation) throw relationNotFound(id);
    return relation;
  }

  /** One page and the filtered total: at most two queries, whatever the page size. */
  list(query: ListRelationsQueryDto): Promise<RelationPage> {
    return this.relations.list(query);
  }

  async create(origin: ChangeOrigin, dto: CreateRelationDto): Promise<Relation> {
    if (dto.sourceAssetId === dto.targetAssetId) {
      throw new InvalidInputError('targetAssetId must differ from sourceAssetId');
    }
    await this.assertAssetsExist(dto.sourceAssetId, dto.targetAssetId);
    const now = new Date();
    const relation: Relation = {
      id: timeOrderedId(),
      sourceAssetId: dto.sourceAssetId,
      targetAssetId: dto.targetAssetId,
      type: dto.type,
      direction: dto.direction ?? RelationDirection.Bi,
      protocol: dto.protocol ?? null,
      toPorts: dto.toPorts ?? null,
      createdAt: now,
      updatedAt: now,
    };
    try {
      await this.writer.create(origin, 'relation', async ({ manager }) => {
        await this.relations.insert(manager, relation);
        return toRelationResponse(relation);
      });
    } catch (error) {
      // An asset deleted since the check fails the foreign key: report it as the check would.
      await this.assertAssetsExist(dto.sourceAssetId, dto.targetAssetId);
      throw error;
    }
    return relation;
  }

  async update(
    origin: ChangeOrigin,
    id: string,
    dto: UpdateRelationDto,
  ): Promise<RelationResponse> {
    const changes: RelationChanges = { updatedAt: new Date() };
    if (dto.type !== undefined) changes.type = dto.type;
    if (dto.direction !== undefined) changes.direction = dto.direction;
    if (dto.protocol !== undefined) changes.protocol = dto.protocol;
    if (dto.toPorts !== undefined) changes.toPorts = dto.toPorts;
    const updated = await this.writer.update(
      origin,
      'relation',
      id,
      async ({ manager }) => {
        const relation = await this.relations.findById(id, manager);
        return relation && toRelationResponse(relation);
      },
      ({ manager }) => this.relations.update(manager, id, changes),
    );
    if (updated === null) throw relationNotFound(id);
    return updated;
  }

  async remove(origin: ChangeOrigin, id: string): Promise<void> {
    const removed = await this.writer.remove(
      origin,
      'relation',
      id,
      async ({ manager }) => {
        const relation = await this.relations.findById(id, manager);
        return relation && toRelationResponse(relation);
      },
      ({ manager }) => this.relations.delete(manager, id),
    );
    if (removed === null) throw relationNotFound(id);
  }

  /** Both ends in one query; a 400 names each end that refers to no asset. */
  private async assertAssetsExist(sourceAssetId: string, targetAssetId: string): Promise<void> {
    const ids = await this.relations.existingAssetIds([sourceAssetId, targetAssetId]);
    const missing = Object.entries({ sourceAssetId, targetAssetId })
      .filter(([, assetId]) => !ids.has(assetId))
      .map(([field]) => `${field} refers to no asset`);
    if (missing.length > 0) throw new InvalidInputError(missing.join('; '));
  }
}
