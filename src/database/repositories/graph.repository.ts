import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { AppDataSource } from '../app-data-source.js';
import { runNamed } from '../sql-reads.js';
import {
  neighbourhoodAssets,
  neighbourhoodRelations,
  PATH_LENGTH,
  PATH_STEPS,
  reachableAssets,
} from './relations/graph-sql.js';

/** An asset a walk reached, at the fewest hops it did. */
export interface HopRow {
  id: string;
  hops: number | string;
}

/** A relation of a shortest walk: from `from_id`, `hops` from the start, to `to_id`. */
export interface PathStepRow {
  relation_id: string;
  from_id: string;
  to_id: string;
  hops: number | string;
}

/** The neighbourhood of `start`: within `depth` hops either way, over relations of `type` if given. */
export interface Neighbourhood {
  start: string;
  depth: number;
  type?: string;
}

/** The reach of `start`: within `maxDepth` hops forwards, open to `port` (and `protocol`). */
export interface Reach {
  start: string;
  maxDepth: number;
  port: number;
  protocol?: string;
}

/**
 * The walks of the relations graph, as recursive SQL (relations/graph-sql.ts): the ids the walks
 * reach, with their hops. The rows themselves are read by their own repositories.
 */
@Injectable()
export class GraphRepository {
  constructor(@InjectDataSource() private readonly dataSource: AppDataSource) {}

  /** Every asset of the neighbourhood with its hops (none: no such asset). */
  neighbourhoodAssets(near: Neighbourhood): Promise<HopRow[]> {
    return this.run<HopRow>(neighbourhoodAssets(near.type !== undefined), parameters(near));
  }

  /** The ids of the relations (of its type) whose two ends the neighbourhood reaches. */
  async neighbourhoodRelationIds(near: Neighbourhood): Promise<string[]> {
    const sql = neighbourhoodRelations(near.type !== undefined);
    const rows = await this.run<{ id: string }>(sql, parameters(near));
    return rows.map((row) => row.id);
  }

  /** The hops of a walk from `from` to `to` within `maxDepth` (PATH_LENGTH); null: none. */
  async pathLength(from: string, to: string, maxDepth: number): Promise<number | null> {
    const [found] = await this.run<{ hops: number | string }>(PATH_LENGTH, { from, to, maxDepth });
    return found ? Number(found.hops) : null;
  }

  /** Every relation on a shortest walk from `from` to `to` of at most `maxDepth` hops. */
  pathSteps(from: string, to: string, maxDepth: number): Promise<PathStepRow[]> {
    return this.run<PathStepRow>(PATH_STEPS, { from, to, maxDepth });
  }

  /** Every asset the reach walks to, with its hops; `start` at 0 (none: no such asset). */
  reachableAssets(reach: Reach): Promise<HopRow[]> {
    const withProtocol = reach.protocol !== undefined;
    return this.run<HopRow>(reachableAssets(this.dataSource.dialect, withProtocol), {
      start: reach.start,
      maxDepth: reach.maxDepth,
      port: reach.port,
      ...(withProtocol && { protocol: reach.protocol }),
    });
  }

  private run<T>(sql: string, parameters: Record<string, unknown>): Promise<T[]> {
    return runNamed<T>(this.dataSource.manager, sql, parameters);
  }
}

function parameters({ start, depth, type }: Neighbourhood): Record<string, unknown> {
  return { start, depth, ...(type !== undefined && { type }) };
}
