import { Injectable } from '@nestjs/common';
import type { AssetResponse } from '../assets/dto/asset-response.dto.js';
import { AssetsService } from '../assets/assets.service.js';
import { NotFoundError } from '../common/errors/not-found.error.js';
import { GraphRepository } from '../database/repositories/graph.repository.js';
import { RelationsRepository } from '../database/repositories/relations.repository.js';
import { toRelationResponse } from '../relations/dto/relation-response.dto.js';
import type { GraphQueryDto } from './dto/graph-query.dto.js';
import type { GraphResponse } from './dto/graph-response.dto.js';
import type { PathQueryDto } from './dto/path-query.dto.js';
import type { ReachableAssetResponse } from './dto/reachable-asset-response.dto.js';
import type { ReachableQueryDto } from './dto/reachable-query.dto.js';
import {
  compareReached,
  hopsById,
  nearestFirst,
  pickWalk,
  oldestFirst,
  type Walk,
} from './graph-walks.js';

const assetNotFound = (id: string) => new NotFoundError(`asset ${id} not found`);

/**
 * The graph queries: the walks are GraphRepository's recursive SQL; the assets and relations
 * they reach are answered by the assets' and the relations' own mappers, as every other route
 * does.
 */
@Injectable()
export class GraphService {
  constructor(
    private readonly graph: GraphRepository,
    private readonly relations: RelationsRepository,
    private readonly assets: AssetsService,
  ) {}

  /** The asset, every asset within `depth` hops either way, and the relations between them. */
  async neighbourhood(id: string, query: GraphQueryDto): Promise<GraphResponse> {
    const near = { start: id, depth: query.depth, type: query.type };
    const hops = hopsById(await this.graph.neighbourhoodAssets(near));
    if (hops.size === 0) throw assetNotFound(id);

    const [assets, relations] = await Promise.all([
      this.assets.findByIds(nearestFirst(hops)),
      this.graph.neighbourhoodRelationIds(near).then((ids) => this.relations.findByIds(ids)),
    ]);
    // The reads may straddle a write: no relation is answered without both its ends.
    const answered = new Set(assets.map((asset) => asset.id));
    return {
      assets,
      relations: relations
        .filter((relation) => answered.has(relation.sourceAssetId))
        .filter((relation) => answered.has(relation.targetAssetId))
        .sort(oldestFirst)
        .map(toRelationResponse),
    };
  }

  /** A shortest walk from `from` to `to` honouring directions, in walk order. */
  async path({ from, to, maxDepth }: PathQueryDto): Promise<GraphResponse> {
    const existing = await this.relations.existingAssetIds([from, to]);
    const unknown = Object.entries({ from, to }).filter(([, id]) => !existing.has(id));
    if (unknown.length > 0) {
      throw new NotFoundError(
        unknown.map(([field, id]) => `${field}: asset ${id} not found`).join('; '),
      );
    }

    const noPath = new NotFoundError(`no path from ${from} to ${to} within ${maxDepth} hops`);
    const walk =
      from === to ? { assetIds: [from], relationIds: [] } : await this.walk(from, to, maxDepth);
    if (!walk) throw noPath;
    const [assets, relations] = await Promise.all([
      this.assets.findByIds(walk.assetIds),
      this.relations.findByIds(walk.relationIds),
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
    const hops = hopsById(
      await this.graph.reachableAssets({
        start: id,
        maxDepth: query.maxDepth,
        port: query.port,
        protocol: query.protocol,
      }),
    );
    if (hops.size === 0) throw assetNotFound(id);
    hops.delete(id);
    const assets: AssetResponse[] = await this.assets.findByIds([...hops.keys()]);
    return assets.map((asset) => ({ asset, hops: hops.get(asset.id)! })).sort(compareReached);
  }

  /**
   * A shortest walk, or null: its length first, which stops as soon as `to` is reached, then the
   * walks of that length, so that the second query walks no further than the path is long.
   */
  private async walk(from: string, to: string, maxDepth: number): Promise<Walk | null> {
    const length = await this.graph.pathLength(from, to, maxDepth);
    if (length === null) return null;
    return pickWalk(await this.graph.pathSteps(from, to, length), from, to);
  }
}
