/** The ingestion's items once validated: what every stage after validate works on. */

import type { ServiceValues } from '../common/field-rules/service-list.js';
import type { VulnerabilityValues } from '../common/field-rules/vulnerability-list.js';
import type { AssetFieldValues } from '../database/tables/assets.table.js';
import type { SpacedValues } from '../common/field-rules/identity-values.js';
import type { IdentityMatchKey, MatchRule } from './match/identity-match.js';

export type IngestMode = 'merge' | 'append' | 'replace';

/** The asset fields an item may carry; absent ones are left out, not null. */
export type IngestAssetFields = Partial<AssetFieldValues>;

/** An entry of an item's `vulnerabilities`, at most one per id. */
export type IngestVulnerability = VulnerabilityValues;

/** An entry of an item's `services`, at most one per (port, protocol). */
export type IngestService = ServiceValues;

export interface IngestAsset {
  /** Position in the payload, for error messages. */
  index: number;
  id?: string;
  fields: IngestAssetFields;
  vulnerabilities?: IngestVulnerability[];
  services?: IngestService[];
  /** The identity lists and tags the item gives, normalized; a list left out is absent. */
  identity?: Partial<SpacedValues>;
}

export interface IngestRelation {
  index: number;
  /**
   * The ends as the item names them: asset ids (payload or stored), or with `endsBy: 'ip'` (a
   * scanner's route, `sourceAssetIp`/`targetAssetIp`) the ips of the payload's asset items.
   */
  sourceAssetId: string;
  targetAssetId: string;
  endsBy?: 'ip';
  type: string;
  direction?: 'bi' | 'mono';
  protocol?: string | null;
  toPorts?: string | null;
}

export type IngestPart = 'assets' | 'relations';

/** How errors name an item: `assets[3]` in a JSON body, `hosts[3]` or `line 7` in a scan. */
export type ItemNamer = (part: IngestPart, index: number) => string;

export const jsonItemName: ItemNamer = (part, index) => `${part}[${index}]`;

/** How a merge item finds the stored asset it updates. */
export type IngestMatchKey = 'id' | IdentityMatchKey;

export interface IngestPayload {
  mode: IngestMode;
  deleteStale: boolean;
  source: string | null;
  /** Plan and answer only: nothing is written. */
  dryRun: boolean;
  /** The most assets the run may delete; null: no limit. */
  maxDeletions: number | null;
  /** The most findings the run may fix; null: no limit. */
  maxFixes: number | null;
  /** merge: how an item without a stored id may match a stored asset (`matchBy`, `site`). */
  match: MatchRule;
  /** Names items in errors. */
  itemName: ItemNamer;
  /** What relations name their ends by: asset ids (JSON), or item ips (scanner formats). */
  relationEnds: 'id' | 'ip';
  /**
   * The assets, checked slice by slice as they are read, so that each slice can be planned
   * (and on SQLite written) before the next is read. To be taken once, before the relations.
   */
  assets: AsyncIterable<IngestAsset[]>;
  /** The relations, checked slice by slice as they are read, once the assets have all been taken. */
  relations: AsyncIterable<IngestRelation[]>;
}

export const INGEST_MODES: readonly IngestMode[] = ['merge', 'append', 'replace'];
