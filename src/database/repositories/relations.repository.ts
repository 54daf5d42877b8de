import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { In, type EntityManager } from 'typeorm';
import { AppDataSource } from '../app-data-source.js';
import { Relation } from '../entities/relation.entity.js';
import { runNamed } from '../sql-reads.js';

/** What the list of relations filters and pages on; each left out: no filter, no bound. */
export interface RelationFilters {
  /** Relations from or to this asset. */
  assetId?: string;
  type?: string;
  limit?: number;
  offset?: number;
}

/** The properties of a relation a change may set (its ends are fixed). */
export type RelationChanges = Partial<
  Pick<Relation, 'type' | 'direction' | 'protocol' | 'toPorts' | 'updatedAt'>
>;

// Ids bound by one IN list: well within the parameters either database takes in a statement.
const IDS_PER_LOOKUP = 10_000;

/** The assets of `ids` that exist. */
const EXISTING_ASSETS = 'SELECT id FROM assets WHERE id IN (:...ids)';

/**
 * The relations table: its rows, and whether the assets a relation or a path names exist. The
 * graph's walks over it are GraphRepository's. Writes take the manager of the writer's unit.
 */
@Injectable()
export class RelationsRepository {
  constructor(@InjectDataSource() private readonly dataSource: AppDataSource) {}

  findById(id: string, manager: EntityManager = this.dataSource.manager): Promise<Relation | null> {
    return manager.getRepository(Relation).findOneBy({ id });
  }

  /** The relations of these ids that exist, in slices, so that any number fits a statement. */
  async findByIds(ids: readonly string[]): Promise<Relation[]> {
    const relations = this.dataSource.getRepository(Relation);
    const found: Relation[] = [];
    for (let start = 0; start < ids.length; start += IDS_PER_LOOKUP) {
      found.push(...(await relations.findBy({ id: In(ids.slice(start, start + IDS_PER_LOOKUP)) })));
    }
    return found;
  }

  /** The relations from or to the asset, by id: those its deletion takes with it. */
  findTouching(manager: EntityManager, assetId: string): Promise<Relation[]> {
    return manager.getRepository(Relation).find({
      where: [{ sourceAssetId: assetId }, { targetAssetId: assetId }],
      order: { id: 'ASC' },
    });
  }

  /** The relations from or to any of these assets (at most a merge's), by id. */
  findTouchingAny(manager: EntityManager, assetIds: readonly string[]): Promise<Relation[]> {
    const ids = In([...assetIds]);
    return manager.getRepository(Relation).find({
      where: [{ sourceAssetId: ids }, { targetAssetId: ids }],
      order: { id: 'ASC' },
    });
  }

  /** One page, oldest first, and the filtered total: two queries, whatever the page size. */
  async list(filters: RelationFilters): Promise<{ relations: Relation[]; total: number }> {
    const select = this.dataSource
      .getRepository(Relation)
      .createQueryBuilder('relation')
      .orderBy('relation.createdAt', 'ASC')
      .addOrderBy('relation.id', 'ASC');
    if (filters.assetId !== undefined) {
      select.andWhere('(relation.sourceAssetId = :assetId OR relation.targetAssetId = :assetId)', {
        assetId: filters.assetId,
      });
    }
    if (filters.type !== undefined)
      select.andWhere('relation.type = :type', { type: filters.type });
    if (filters.limit !== undefined) select.limit(filters.limit);
    if (filters.offset !== undefined) select.offset(filters.offset);
    const [relations, total] = await select.getManyAndCount();
    return { relations, total };
  }

  /** The assets among `ids` that exist (a relation's ends, a path's). */
  async existingAssetIds(ids: readonly string[]): Promise<Set<string>> {
    const rows = await runNamed<{ id: string }>(this.dataSource.manager, EXISTING_ASSETS, { ids });
    return new Set(rows.map((row) => row.id));
  }

  async insert(manager: EntityManager, relation: Relation): Promise<void> {
    await manager.getRepository(Relation).insert(relation);
  }

  async update(manager: EntityManager, id: string, changes: RelationChanges): Promise<void> {
    await manager.getRepository(Relation).update({ id }, changes);
  }

  /** Moves a relation's ends (a merge's), in the unit of `manager`. */
  async repoint(
    manager: EntityManager,
    id: string,
    ends: Pick<Relation, 'sourceAssetId' | 'targetAssetId' | 'updatedAt'>,
  ): Promise<void> {
    await manager.getRepository(Relation).update({ id }, ends);
  }

  /** Deletes these relations, in the unit of `manager`. */
  async deleteMany(manager: EntityManager, ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await manager.getRepository(Relation).delete({ id: In([...ids]) });
  }

  async delete(manager: EntityManager, id: string): Promise<void> {
    await manager.getRepository(Relation).delete({ id });
  }
}
