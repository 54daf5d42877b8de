import { BadRequestException, ConflictException } from '@nestjs/common';
import type { AssetRow, VulnerabilityRow } from '../../assets/asset-rows.js';
import type { IngestAsset, IngestAssetFields, IngestVulnerability } from '../ingest-payload.js';
import type { IngestCounts, PlanContext } from './ingest-plan.js';

/** The asset columns an item may set, in the order the rows are written. */
export const ASSET_FIELDS = [
  'name',
  'ip',
  'type',
  'vendor',
  'model',
  'risk_score',
  'site',
  'os_version',
] as const;

/** What to write for a slice of the payload's assets, and where its items went. */
export interface AssetPlan {
  creates: AssetRow[];
  updates: AssetRow[];
  /** The vulnerability list to store, by asset id. */
  vulnerabilityLists: Map<string, IngestVulnerability[]>;
  /** Matched assets whose stored list the new one replaces (deleted before the insert). */
  replacedLists: string[];
  /** The id each item of the slice resolved to, in the slice's order. */
  ids: string[];
  /**
   * The stored assets this slice matched (merge), and the index of the item that matched each:
   * an index rather than the item, so that the items can go once their slice is written.
   */
  matched: Map<string, number>;
  counts: Pick<IngestCounts, 'assetsCreated' | 'assetsUpdated' | 'vulnerabilities'>;
}

/** The stored rows a merge slice may match, as the lookups found them. */
export interface StoredAssets {
  byId: ReadonlyMap<string, AssetRow>;
  /** By ip, the earliest created asset with it. */
  byIp: ReadonlyMap<string, AssetRow>;
  /** The stored vulnerabilities of the matched assets, by asset id. */
  vulnerabilities: ReadonlyMap<string, VulnerabilityRow[]>;
}

/** merge matches by id, then by ip. */
export function storedMatch(
  asset: IngestAsset,
  stored: Pick<StoredAssets, 'byId' | 'byIp'>,
): AssetRow | undefined {
  return (
    (asset.id ? stored.byId.get(asset.id) : undefined) ??
    (asset.fields.ip ? stored.byIp.get(asset.fields.ip) : undefined)
  );
}

function emptyPlan(): AssetPlan {
  return {
    creates: [],
    updates: [],
    vulnerabilityLists: new Map(),
    replacedLists: [],
    ids: [],
    matched: new Map(),
    counts: { assetsCreated: 0, assetsUpdated: 0, vulnerabilities: 0 },
  };
}

function withCounts(plan: AssetPlan): AssetPlan {
  let vulnerabilities = 0;
  for (const list of plan.vulnerabilityLists.values()) vulnerabilities += list.length;
  plan.counts = {
    assetsCreated: plan.creates.length,
    assetsUpdated: plan.updates.length,
    vulnerabilities,
  };
  return plan;
}

/** Adds the row of a new asset to `plan`; answers its id. */
function create(asset: IngestAsset, plan: AssetPlan, context: PlanContext): string {
  const { fields } = asset;
  if (fields.name === undefined) {
    throw new BadRequestException(`assets[${asset.index}].name is required to create an asset`);
  }
  const id = asset.id ?? context.newId();
  plan.creates.push({
    id,
    name: fields.name,
    ip: fields.ip ?? null,
    type: fields.type ?? null,
    vendor: fields.vendor ?? null,
    model: fields.model ?? null,
    risk_score: fields.risk_score ?? null,
    site: fields.site ?? null,
    os_version: fields.os_version ?? null,
    source: context.source,
  });
  if (asset.vulnerabilities) plan.vulnerabilityLists.set(id, asset.vulnerabilities);
  return id;
}

/** The stored row with the item's fields applied, or null when nothing would change. */
function mergedRow(
  stored: AssetRow,
  fields: IngestAssetFields,
  source: string | null,
  force = false,
): AssetRow | null {
  const merged: AssetRow = { ...stored, ...fields };
  if (source !== null) merged.source = source;
  const changed =
    force ||
    merged.source !== stored.source ||
    ASSET_FIELDS.some((field) => merged[field] !== stored[field]);
  return changed ? merged : null;
}

function sameVulnerabilities(stored: VulnerabilityRow[], given: IngestVulnerability[]): boolean {
  if (stored.length !== given.length) return false;
  const byId = new Map(stored.map((row) => [row.id, row]));
  return given.every((item) => {
    const row = byId.get(item.id);
    return (
      row !== undefined &&
      row.score === item.score &&
      row.summary === item.summary &&
      row.published_date === item.publishedDate
    );
  });
}

/**
 * append and replace: every item is a new asset. `taken` holds the slice's ids that are
 * already stored (append; none in replace, where the store was emptied first).
 */
export function planCreateAll(
  assets: readonly IngestAsset[],
  taken: ReadonlySet<string>,
  context: PlanContext,
): AssetPlan {
  const clash = assets.find((asset) => asset.id && taken.has(asset.id));
  if (clash) throw new ConflictException(`assets[${clash.index}].id ${clash.id} already exists`);
  const plan = emptyPlan();
  for (const asset of assets) plan.ids.push(create(asset, plan, context));
  return withCounts(plan);
}

/**
 * merge: each item updates the stored asset it matches (storedMatch), else is created.
 * `matchedBefore`: the stored assets earlier slices matched, and the index of the item.
 */
export function planMerge(
  assets: readonly IngestAsset[],
  stored: StoredAssets,
  matchedBefore: ReadonlyMap<string, number>,
  context: PlanContext,
): AssetPlan {
  const plan = emptyPlan();
  const matched = new Map<string, IngestAsset>();
  const matchedRows = new Map<string, AssetRow>();
  const matchedWithVulnerabilities: string[] = [];
  for (const asset of assets) {
    const match = storedMatch(asset, stored);
    if (!match) {
      plan.ids.push(create(asset, plan, context));
      continue;
    }
    const earlier = matchedBefore.get(match.id) ?? matched.get(match.id)?.index;
    if (earlier !== undefined) {
      throw new BadRequestException(
        `assets[${asset.index}] matches the same stored asset (${match.id}) as assets[${earlier}]`,
      );
    }
    matched.set(match.id, asset);
    plan.matched.set(match.id, asset.index);
    matchedRows.set(match.id, match);
    plan.ids.push(match.id);
    const merged = mergedRow(match, asset.fields, context.source);
    if (merged) plan.updates.push(merged);
    if (asset.vulnerabilities) {
      plan.vulnerabilityLists.set(match.id, asset.vulnerabilities);
      matchedWithVulnerabilities.push(match.id);
    }
  }

  // A list equal to the stored one is no change: running the same payload twice writes nothing.
  const updated = new Set(plan.updates.map((row) => row.id));
  for (const id of matchedWithVulnerabilities) {
    if (
      sameVulnerabilities(stored.vulnerabilities.get(id) ?? [], plan.vulnerabilityLists.get(id)!)
    ) {
      plan.vulnerabilityLists.delete(id);
    } else {
      plan.replacedLists.push(id);
      // A new list is a change of the asset even when its own fields are the same.
      if (!updated.has(id)) {
        plan.updates.push(
          mergedRow(matchedRows.get(id)!, matched.get(id)!.fields, context.source, true)!,
        );
      }
    }
  }
  return withCounts(plan);
}
