import type { AssetRow } from '../../database/tables/assets.table.js';
import type { ItemNamer } from '../ingest-payload.js';
import type { MatchRule } from '../match/identity-match.js';
import type { IngestedRelationRow } from '../../database/tables/relations.table.js';

/** What each stage's plan adds to the answer's stats. */
export interface IngestCounts {
  assetsCreated: number;
  assetsUpdated: number;
  assetsUnchanged: number;
  assetsDeleted: number;
  relationsCreated: number;
  relationsUpdated: number;
  relationsUnchanged: number;
  relationsDeleted: number;
  vulnerabilities: number;
  findingsOpened: number;
  findingsReopened: number;
  findingsFixed: number;
}

export function noCounts(): IngestCounts {
  return {
    assetsCreated: 0,
    assetsUpdated: 0,
    assetsUnchanged: 0,
    assetsDeleted: 0,
    relationsCreated: 0,
    relationsUpdated: 0,
    relationsUnchanged: 0,
    relationsDeleted: 0,
    vulnerabilities: 0,
    findingsOpened: 0,
    findingsReopened: 0,
    findingsFixed: 0,
  };
}

export function addCounts(total: IngestCounts, more: Partial<IngestCounts>): void {
  for (const [key, value] of Object.entries(more) as [keyof IngestCounts, number][]) {
    total[key] += value;
  }
}

/** What every plan of one ingestion shares. */
export interface PlanContext {
  /**
   * The payload's source: written on every asset it creates or matches, and added to their
   * `sources`, when not null.
   */
  source: string | null;
  /** merge: how an item whose id is not stored may match a stored asset (identity-match.ts). */
  match: MatchRule;
  /** The id of a new row (passed in, so that tests are deterministic). */
  newId: () => string;
  /** How errors name items; `assets[i]`/`relations[i]` when absent. */
  itemName?: ItemNamer;
}

/** A stored asset as a merge reads it: its row and what its provenance holds. */
export interface StoredAsset extends AssetRow {
  /** 1 when an ingestion with a source has named it (first_seen_at is set), else 0. */
  seen: number;
}

/** A stored asset's `sources`, in position order, and the position a feed added now takes. */
export interface StoredSources {
  names: string[];
  next: number;
}

/** A relations row as the plan reads and writes it. */
export type RelationRow = IngestedRelationRow;
