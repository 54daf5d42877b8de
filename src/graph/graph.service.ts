import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import type { AssetResponse } from '../assets/dto/asset-response.dto.js';
import { Dialect } from '../database/dialect/dialect.js';
import { AssetsService } from '../assets/assets.service.js';
import { NotFoundError } from '../common/errors/not-found.error.js';
import { toRelationResponse } from '../relations/dto/relation-response.dto.js';
import { Relation } from '../database/entities/relation.entity.js';
import type { GraphQueryDto } from './dto/graph-query.dto.js';
import type { GraphResponse } from './dto/graph-response.dto.js';
import type { PathQueryDto } from './dto/path-query.dto.js';
import type { ReachableAssetResponse } from './dto/reachable-asset-response.dto.js';
import type { ReachableQueryDto } from './dto/reachable-query.dto.js';
import {
  EXISTING_ASSETS,
  neighbourhoodAssets,
  neighbourhoodRelations,
  PATH_LENGTH,
  PATH_STEPS,
  reachableAssets,
} from './graph-sql.js';
import {
  compareReached,
  hopsById,
  nearestFirst,
  pickWalk,
  oldestFirst,
  type HopRow,
  type PathStepRow,
  type Walk,
} from './graph-walks.js';

// Ids bound by one IN list: well within the parameters either database takes in a statement.
const IDS_PER_LOOKUP = 10_000;

const assetNotFound = (id: string) => new NotFoundError(`asset ${id} not found`);

/**
 * The graph queries: the walks are recursive SQL (graph-sql.ts); the assets and relations they
 * reach are answered by the assets' and the relations' own mappers, as every other route does.
 */
@Injectable()
export class GraphService {
  constructor(
    @InjectRepository(Relation) private readonly relations: Repository<Relation>,
    private readonly assets: AssetsService,
    private readonly dialect: Dialect,
  ) {}

  /** The asset, every asset within `depth` hops either way, and the relations between them. */
  async neighbourhood(id: string, query: GraphQueryDto): Promise<GraphResponse> {
    const ofType = query.type !== undefined;
    const parameters = { start: id, depth: query.depth, ...(ofType && { type: query.type }) };
    const hops = hopsById(await this.run<HopRow>(neighbourhoodAssets(ofType), parameters));
    if (hops.size === 0) throw assetNotFound(id);

    const [assets, relations] = await Promise.all([
      this.assets.findByIds(nearestFirst(hops)),
      this.run<{ id: string }>(neighbourhoodRelations(ofType), parameters).then((rows) =>
        this.relationsByIds(rows.map((row) => row.id)),
      ),
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
    const found = await this.run<{ id: string }>(EXISTING_ASSETS, { ids: [from, to] });
    const existing = new Set(found.map((row) => row.id));
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
      this.relationsByIds(walk.relationIds),
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
    const rows = await this.run<HopRow>(reachableAssets(this.dialect, withProtocol), {
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

  /**
   * A shortest walk, or null: its length first, which stops as soon as `to` is reached, then the
   * walks of that length, so that the second query walks no further than the path is long.
   */
  private async walk(from: string, to: string, maxDepth: number): Promise<Walk | null> {
    const [found] = await this.run<{ hops: number | string }>(PATH_LENGTH, { from, to, maxDepth });
    if (!found) return null;
    const parameters = { from, to, maxDepth: Number(found.hops) };
    return pickWalk(await this.run<PathStepRow>(PATH_STEPS, parameters), from, to);
  }

  /** The relations of these ids, in slices, so that any number fits a statement. */
  private async relationsByIds(ids: readonly string[]): Promise<Relation[]> {
    const found: Relation[] = [];
    for (let start = 0; start < ids.length; start += IDS_PER_LOOKUP) {
      found.push(
        ...(await this.relations.findBy({ id: In(ids.slice(start, start + IDS_PER_LOOKUP)) })),
      );
    }
    return found;
  }

  /** Runs SQL with :named parameters, in the placeholders of the database at hand. */
  private run<T>(sql: string, parameters: Record<string, unknown>): Promise<T[]> {
    const manager = this.relations.manager;
    const [query, values] = manager.connection.driver.escapeQueryWithParameters(sql, parameters);
    return manager.query<T[]>(query, values);
  }
}
