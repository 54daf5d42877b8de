import type { RelationRow } from './ingest-plan.js';

export interface StalePlan {
  /** Stored assets the payload does not name: deleted with every relation to or from them. */
  assets: string[];
  /** Stored relations among the payload's assets that the payload does not list. */
  relations: string[];
}

/**
 * deleteStale. `candidates`: the stored assets it may delete (all, or those last written by
 * the payload's source); `keptAssets`: every asset the payload resolved to; `storedRelations`:
 * the stored relations from the assets matched or named; `keptRelations`: those it listed.
 * How many relations go with the stale assets is the database's to count.
 */
export function planStale(
  candidates: readonly string[],
  keptAssets: ReadonlySet<string>,
  storedRelations: readonly RelationRow[],
  keptRelations: ReadonlySet<string>,
): StalePlan {
  return {
    assets: candidates.filter((id) => !keptAssets.has(id)),
    relations: storedRelations
      .filter(
        (row) =>
          keptAssets.has(row.source_asset_id) &&
          keptAssets.has(row.target_asset_id) &&
          !keptRelations.has(row.id),
      )
      .map((row) => row.id),
  };
}
