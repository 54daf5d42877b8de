import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository, type QueryDeepPartialEntity } from 'typeorm';
import { Asset } from '../database/entities/asset.entity.js';
import type { ChangeOrigin } from '../database/history/change-origin.js';
import { InventoryWriter } from '../database/writer/inventory-writer.js';
import { InvalidInputError } from '../common/errors/invalid-input.error.js';
import { NotFoundError } from '../common/errors/not-found.error.js';
import { toRelationResponse, type RelationResponse } from './dto/relation-response.dto.js';
import type { CreateRelationDto } from './dto/create-relation.dto.js';
import type { ListRelationsQueryDto } from './dto/list-relations-query.dto.js';
import type { UpdateRelationDto } from './dto/update-relation.dto.js';
import { Relation } from '../database/entities/relation.entity.js';
import { RelationDirection } from '../common/field-rules/inventory-values.js';
import { v7 as uuidv7 } from 'uuid';

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
    @InjectRepository(Relation) private readonly relations: Repository<Relation>,
    @InjectRepository(Asset) private readonly assets: Repository<Asset>,
    private readonly writer: InventoryWriter,
  ) {}

  findById(id: string): Promise<Relation | null> {
    return this.relations.findOneBy({ id });
  }

  async getById(id: string): Promise<Relation> {
    const relation = await this.findById(id);
    if (!relation) throw relationNotFound(id);
    return relation;
  }

  /** One page and the filtered total: at most two queries, whatever the page size. */
  async list(query: ListRelationsQueryDto): Promise<RelationPage> {
    const select = this.relations
      .createQueryBuilder('relation')
      .orderBy('relation.createdAt', 'ASC')
      .addOrderBy('relation.id', 'ASC');
    if (query.assetId !== undefined) {
      select.andWhere('(relation.sourceAssetId = :assetId OR relation.targetAssetId = :assetId)', {
        assetId: query.assetId,
      });
    }
    if (query.type !== undefined) select.andWhere('relation.type = :type', { type: query.type });
    if (query.limit !== undefined) select.limit(query.limit);
    if (query.offset !== undefined) select.offset(query.offset);
    const [relations, total] = await select.getManyAndCount();
    return { relations, total };
  }

  async create(origin: ChangeOrigin, dto: CreateRelationDto): Promise<Relation> {
    if (dto.sourceAssetId === dto.targetAssetId) {
      throw new InvalidInputError('targetAssetId must differ from sourceAssetId');
    }
    await this.assertAssetsExist(dto.sourceAssetId, dto.targetAssetId);
    const now = new Date();
    const relation = this.relations.create({
      id: uuidv7(),
      sourceAssetId: dto.sourceAssetId,
      targetAssetId: dto.targetAssetId,
      type: dto.type,
      direction: dto.direction ?? RelationDirection.Bi,
      protocol: dto.protocol ?? null,
      toPorts: dto.toPorts ?? null,
      createdAt: now,
      updatedAt: now,
    });
    try {
      await this.writer.create(origin, 'relation', async ({ manager }) => {
        await manager.getRepository(Relation).insert(relation);
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
    const changes: QueryDeepPartialEntity<Relation> = { updatedAt: new Date() };
    if (dto.type !== undefined) changes.type = dto.type;
    if (dto.direction !== undefined) changes.direction = dto.direction;
    if (dto.protocol !== undefined) changes.protocol = dto.protocol;
    if (dto.toPorts !== undefined) changes.toPorts = dto.toPorts;
    const updated = await this.writer.update(
      origin,
      'relation',
      id,
      async ({ manager }) => {
        const relation = await manager.getRepository(Relation).findOneBy({ id });
        return relation && toRelationResponse(relation);
      },
      async ({ manager }) => void (await manager.getRepository(Relation).update({ id }, changes)),
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
        const relation = await manager.getRepository(Relation).findOneBy({ id });
        return relation && toRelationResponse(relation);
      },
      async ({ manager }) => void (await manager.getRepository(Relation).delete({ id })),
    );
    if (removed === null) throw relationNotFound(id);
  }

  /** Both ends in one query; a 400 names each end that refers to no asset. */
  private async assertAssetsExist(sourceAssetId: string, targetAssetId: string): Promise<void> {
    const found = await this.assets.find({
      select: { id: true },
      where: { id: In([sourceAssetId, targetAssetId]) },
    });
    const ids = new Set(found.map((asset) => asset.id));
    const missing = Object.entries({ sourceAssetId, targetAssetId })
      .filter(([, assetId]) => !ids.has(assetId))
      .map(([field]) => `${field} refers to no asset`);
    if (missing.length > 0) throw new InvalidInputError(missing.join('; '));
  }
}
