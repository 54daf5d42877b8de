import { Injectable, NotFoundException } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import type { AssetResponse } from '../assets/dto/asset-response.dto.js';
import { AssetsService } from '../assets/assets.service.js';
import { toRelationResponse } from '../relations/dto/relation-response.dto.js';
import { Relation } from '../relations/relation.entity.js';
import type { GraphQueryDto } from './dto/graph-query.dto.js';
import type { GraphResponse } from './dto/graph-response.dto.js';
import type { PathQueryDto } from './dto/path-query.dto.js';
import type { ReachableAssetResponse } from './dto/reachable-asset-response.dto.js';
import type { ReachableQueryDto } from './dto/reachable-query.dto.js';
import {
  EXISTING_ASSETS,
  neighbourhoodAssets,
  neighbourhoodWalk,
  PATH_STEPS,
  reachableAssets,
} from './graph-sql.js';
import {
  compareReached,
  hopsById,
  nearestFirst,
  pickWalk,
  type HopRow,
  type PathStepRow,
} from './graph-walks.js';

const assetNotFound = (id: string) => new NotFoundException(`asset ${id} not found`);

/**
 * The graph queries: the walks are recursive SQL (graph-sql.ts); the assets and relations they
 * reach are answered by the assets' and the relations' own mappers, as every other route does.
 */
@Injectable()
export class GraphService {
  private readonly postgres: boolean;

  constructor(
    @InjectRepository(Relation) private readonly relations: Repository<Relation>,
    private readonly assets: AssetsService,
  ) {
    this.postgres = relations.manager.connection.options.type === 'postgres';
  }

  /** The asset, every asset within `depth` hops either way, and the relations between them. */
  async neighbourhood(id: string, query: GraphQueryDto): Promise<GraphResponse> {
    const ofType = query.type !== undefined;
    const parameters = { start: id, depth: query.depth, ...(ofType && { type: query.type }) };
    const hops = hopsById(await this.run<HopRow>(neighbourhoodAssets(ofType), parameters));
    if (hops.size === 0) throw assetNotFound(id);

    const select = this.relations
      .createQueryBuilder('relation')
      .addCommonTableExpression(neighbourhoodWalk(ofType), 'walk', {
        recursive: true,
        columnNames: ['id', 'hops'],
      })
      .where('relation.sourceAssetId IN (SELECT id FROM walk)')
      .andWhere('relation.targetAssetId IN (SELECT id FROM walk)')
      .orderBy('relation.createdAt', 'ASC')
      .addOrderBy('relation.id', 'ASC')
      .setParameters(parameters);
    if (ofType) select.andWhere('relation.type = :type');
    const [assets, relations] = await Promise.all([
      this.assets.findByIds(nearestFirst(hops)),
      select.getMany(),
    ]);
    // The two reads may straddle a write: no relation is answered without both its ends.
    const answered = new Set(assets.map((asset) => asset.id));
    return {
      assets,
      relations: relations
        .filter((relation) => answered.has(relation.sourceAssetId))
        .filter((relation) => answered.has(relation.targetAssetId))
        .map(toRelationResponse),
    };
  }

  /** A shortest walk from `from` to `to` honouring directions, in walk order. */
  async path({ from, to, maxDepth }: PathQueryDto): Promise<GraphResponse> {
    const found = await this.run<{ id: string }>(EXISTING_ASSETS, { ids: [from, to] });
    const existing = new Set(found.map((row) => row.id));
    const unknown = Object.entries({ from, to }).filter(([, id]) => !existing.has(id));
    if (unknown.length > 0) {
      throw new NotFoundException(
        unknown.map(([field, id]) => `${field}: asset ${id} not found`).join('; '),
      );
    }

    const noPath = new NotFoundException(`no path from ${from} to ${to} within ${maxDepth} hops`);
    const walk =
      from === to
        ? { assetIds: [from], relationIds: [] }
        : pickWalk(await this.run<PathStepRow>(PATH_STEPS, { from, to, maxDepth }), from, to);
    if (!walk) throw noPath;
    const [assets, relations] = await Promise.all([
      this.assets.findByIds(walk.assetIds),
      walk.relationIds.length > 0 ? this.relations.findBy({ id: In(walk.relationIds) }) : [],
    ]);
    // A write since the walk may have taken part of it away.
    const byId = new Map(relations.map((relation) => [relation.id, relation]));
    const steps = walk.relationIds.flatMap((relationId) => byId.get(relationId) ?? []);
    if (assets.length !== walk.assetIds.length || steps.length !== walk.relationIds.length) {
      throw noPath;
    }
    return { assets, relations: steps.map(toRelationResponse) };
  }

  /** Every asset reachable from the asset through relations open to the port and protocol. */
  async reachable(id: string, query: ReachableQueryDto): Promise<ReachableAssetResponse[]> {
    const withProtocol = query.protocol !== undefined;
    const rows = await this.run<HopRow>(reachableAssets(this.postgres, withProtocol), {
      start: id,
      maxDepth: query.maxDepth,
      port: query.port,
      ...(withProtocol && { protocol: query.protocol }),
    });
    const hops = hopsById(rows);
    if (hops.size === 0) throw assetNotFound(id);
    hops.delete(id);
    const assets: AssetResponse[] = await this.assets.findByIds([...hops.keys()]);
    return assets.map((asset) => ({ asset, hops: hops.get(asset.id)! })).sort(compareReached);
  }

  /** Runs SQL with :named parameters, in the placeholders of the database at hand. */
  private run<T>(sql: string, parameters: Record<string, unknown>): Promise<T[]> {
    const manager = this.relations.manager;
    const [query, values] = manager.connection.driver.escapeQueryWithParameters(sql, parameters);
    return manager.query<T[]>(query, values);
  }
}
