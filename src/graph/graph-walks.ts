/*
 * The decisions on what the graph queries found: in which order assets are answered and which
 * walk is the path. Ties are broken by id in JavaScript's order, the same on either database.
 */

import type { HopRow, PathStepRow } from '../database/repositories/graph.repository.js';

export type { HopRow, PathStepRow };

/** A shortest walk: its assets from start to end, and the relation of each step between them. */
export interface Walk {
  assetIds: string[];
  relationIds: string[];
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Hop counts by asset id, as numbers (PostgreSQL may answer an aggregate as text). */
export function hopsById(rows: readonly HopRow[]): Map<string, number> {
  return new Map(rows.map((row) => [row.id, Number(row.hops)]));
}

/** Asset ids nearest first (the start, at 0 hops, first of all), then by id. */
export function nearestFirst(hops: ReadonlyMap<string, number>): string[] {
  return [...hops.keys()].sort((a, b) => hops.get(a)! - hops.get(b)! || byText(a, b));
}

/**
 * The walk from `from` to `to` through the steps of the shortest ones (each step leads one hop
 * nearer to `to`), taking at each asset the step with the smallest relation id; null when
 * the steps do not lead from `from` to `to`.
 */
export function pickWalk(steps: readonly PathStepRow[], from: string, to: string): Walk | null {
  const walk: Walk = { assetIds: [from], relationIds: [] };
  const sorted = [...steps].sort((a, b) => byText(a.relation_id, b.relation_id));
  let at = from;
  while (at !== to) {
    const hops = walk.relationIds.length;
    const step = sorted.find((row) => row.from_id === at && Number(row.hops) === hops);
    if (!step) return null;
    at = step.to_id;
    walk.assetIds.push(at);
    walk.relationIds.push(step.relation_id);
  }
  return walk;
}

/** What the reachable route sorts on. */
export interface Reached {
  asset: { id: string; risk_score: number | null };
  hops: number;
}

/**
 * The reachable route's order: the riskiest first, assets without a risk_score after every
 * scored one; then the nearest first; then by id.
 */
export function compareReached(a: Reached, b: Reached): number {
  const riskA = a.asset.risk_score ?? -1;
  const riskB = b.asset.risk_score ?? -1;
  return riskB - riskA || a.hops - b.hops || byText(a.asset.id, b.asset.id);
}

/** Relations oldest first, then by id, as the relation list orders them. */
export function oldestFirst(
  a: { createdAt: Date; id: string },
  b: { createdAt: Date; id: string },
): number {
  return a.createdAt.getTime() - b.createdAt.getTime() || byText(a.id, b.id);
}
