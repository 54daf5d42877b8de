import type { AssetOrigin } from '../../common/field-rules/inventory-values.js';
import { ConflictError } from '../../common/errors/conflict.error.js';
import type { RelationRow } from './ingest-plan.js';

/** A stored asset deleteStale may touch, as the lookups read it. */
export interface StaleCandidate {
  id: string;
  origin: AssetOrigin;
  /** How many feeds its `sources` hold. */
  sourceCount: number;
}

/** What deleteStale does to the stored assets the payload does not name. */
export interface StaleAssetPlan {
  /** Deleted with every relation to or from them; in id order. */
  deletes: string[];
  /** Kept, with the payload's source taken out of their `sources` (an update); in id order. */
  sourceRemovals: string[];
}

/** JavaScript's default order (UTF-16 code units): the order `changes` lists deletions in. */
export const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * deleteStale's decision on the stored assets. `candidates`: without a source, every stored
 * asset; with a source S, those whose `sources` hold S. `kept`: every asset the payload
 * resolved to. Without a source, each candidate the payload does not name is deleted. With S,
 * S is taken out of each such candidate's `sources`, and it is deleted only when no source is
 * left and an ingestion created it: an asset made by hand is never deleted by a feed.
 */
export function planStaleAssets(
  candidates: readonly StaleCandidate[],
  kept: ReadonlySet<string>,
  source: string | null,
): StaleAssetPlan {
  const plan: StaleAssetPlan = { deletes: [], sourceRemovals: [] };
  for (const candidate of candidates) {
    if (kept.has(candidate.id)) continue;
    const deleted =
      source === null || (candidate.sourceCount <= 1 && candidate.origin === 'ingest');
    (deleted ? plan.deletes : plan.sourceRemovals).push(candidate.id);
  }
  plan.deletes.sort(byId);
  plan.sourceRemovals.sort(byId);
  return plan;
}

/**
 * deleteStale's decision on the relations the payload does not list: `storedRelations`, the
 * stored relations from the assets matched or named, `keptRelations`, those it listed. Those
 * among the payload's assets go; those to or from a deleted asset go with it, counted by
 * whoever deletes it.
 */
export function planStaleRelations(
  kept: ReadonlySet<string>,
  storedRelations: readonly RelationRow[],
  keptRelations: ReadonlySet<string>,
): RelationRow[] {
  return storedRelations.filter(
    (row) =>
      kept.has(row.source_asset_id) && kept.has(row.target_asset_id) && !keptRelations.has(row.id),
  );
}

/** maxFixes: refuses a run that would fix more findings than the caller allows. */
export function checkMaxFixes(fixes: number, maxFixes: number | null): void {
  if (maxFixes !== null && fixes > maxFixes) {
    throw new ConflictError(
      `this ingestion would fix ${fixes} findings, more than maxFixes ${maxFixes}`,
    );
  }
}

/** maxDeletions: refuses a run that would delete more assets than the caller allows. */
export function checkMaxDeletions(deletions: number, maxDeletions: number | null): void {
  if (maxDeletions !== null && deletions > maxDeletions) {
    throw new ConflictError(
      `this ingestion would delete ${deletions} assets, more than maxDeletions ${maxDeletions}`,
    );
  }
}
