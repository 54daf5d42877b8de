import type { ServiceRow } from '../../database/tables/services.table.js';
import type { PlannedFinding } from '../../database/repositories/findings/finding-stored-rows.js';
import {
  planFindings,
  sameListed,
  type FindingListPlan,
  type ListedVulnerability,
} from '../../findings/plan/plan-findings.js';
import { ConflictError } from '../../common/errors/conflict.error.js';
import { InvalidInputError } from '../../common/errors/invalid-input.error.js';
import {
  jsonItemName,
  type IngestAsset,
  type IngestService,
  type IngestVulnerability,
} from '../ingest-payload.js';
import type { IngestCounts, PlanContext, StoredAsset, StoredSources } from './ingest-plan.js';
import { identityCandidates, type MatchRule } from '../match/identity-match.js';
import {
  ASSET_FIELDS,
  LIST_COLUMNS,
  type AssetRow,
  type ListColumn,
} from '../../database/tables/assets.table.js';
import {
  identityText,
  identityValues,
  resolveAddresses,
} from '../../common/field-rules/identity-values.js';

/** A matched asset whose stored values change, with what they were (for the change list). */
export interface AssetUpdate {
  before: StoredAsset;
  after: AssetRow;
  /** Its `sources` before the payload's source was added to them; null when they stay. */
  sourcesBefore: string[] | null;
  /** Whether this run is the first with a source to name it (first_seen_at is set). */
  firstSeen: boolean;
  /** The asset's vulnerabilities (open and accepted findings) before, when they change; else null. */
  vulnerabilitiesBefore: ListedVulnerability[] | null;
  /** The stored list a new service list replaces; null when the list stays. */
  servicesBefore: ServiceRow[] | null;
}

/** What to write for a slice of the payload's assets, and where its items went. */
export interface AssetPlan {
  /** New assets (origin `ingest`), in payload order. */
  creates: AssetRow[];
  /** Matched assets whose stored values change, in payload order. */
  updates: AssetUpdate[];
  /** Matched assets left as they were: with a source, only their last_seen_at moves. */
  unchanged: string[];
  /** Matched assets the payload's source is added to, with the position it takes. */
  sourceAdds: [assetId: string, position: number][];
  /** What each item's vulnerability list does to its asset's findings, by asset id. */
  findingPlans: Map<string, FindingListPlan>;
  /**
   * Matched assets whose item lists their findings as they are (StoredAssets.findingsAsListed):
   * only the listed findings' last sighting moves, found by the database.
   */
  findingsSeenAsListed: string[];
  /** The vulnerabilities each asset of `findingPlans` lists after (for the change list), by asset id. */
  vulnerabilityLists: Map<string, IngestVulnerability[]>;
  /** The service list to store, by asset id. */
  serviceLists: Map<string, IngestService[]>;
  /** Matched assets whose stored services the new list replaces (deleted before the insert). */
  replacedServiceLists: string[];
  /** The id each item of the slice resolved to, in the slice's order. */
  ids: string[];
  /**
   * The stored assets this slice matched (merge), and the index of the item that matched each:
   * an index rather than the item, so that the items can go once their slice is written.
   */
  matched: Map<string, number>;
  counts: Pick<
    IngestCounts,
    | 'assetsCreated'
    | 'assetsUpdated'
    | 'assetsUnchanged'
    | 'vulnerabilities'
    | 'findingsOpened'
    | 'findingsReopened'
    | 'findingsFixed'
  >;
}

/** The stored rows a merge slice may match, as the lookups found them. */
export interface StoredAssets {
  byId: ReadonlyMap<string, StoredAsset>;
  /**
   * By identifier (`kind value`, as asset_identifiers holds it), the assets holding it, for the
   * keys the run matches by (none when matching by id only).
   */
  byIdentifier: ReadonlyMap<string, readonly StoredAsset[]>;
  /** The place of each asset of `byIdentifier` in creation order (then id). */
  createdRank: ReadonlyMap<string, number>;
  /**
   * The items whose vulnerability list leaves a candidate's findings as they are (findingsAsListedKey):
   * their findings are not read.
   */
  findingsAsListed: ReadonlySet<string>;
  /**
   * The stored findings (every status) of the candidates that carry a list, by asset id, unless
   * every such list leaves them as they are.
   */
  findings: ReadonlyMap<string, PlannedFinding[]>;
  /** The stored services of the matched assets that carry a list, by asset id. */
  services: ReadonlyMap<string, ServiceRow[]>;
  /** The candidates whose `sources` hold the payload's source (when it has one). */
  sourceHolders: ReadonlySet<string>;
  /**
   * The stored `sources` of the candidates (read when the payload has a source), but those of
   * `sourceHolders`, which the run leaves as they are.
   */
  sources: ReadonlyMap<string, StoredSources>;
}

/** StoredAssets.findingsAsListed's key of an item (by its index) and a stored asset. */
export const findingsAsListedKey = (itemIndex: number, assetId: string) =>
  `${itemIndex} ${assetId}`;

/** What a merge matches against: the stored assets the lookups found. */
export type MatchedStore = Pick<StoredAssets, 'byId' | 'byIdentifier' | 'createdRank'>;

/**
 * The stored assets a merge item may match: the one with its id, else those its identity
 * matches under the run's rule (identityCandidates: mac, ip, hostname in turn, sites kept
 * apart), best first.
 */
export function storedCandidates(
  asset: IngestAsset,
  stored: MatchedStore,
  rule: MatchRule,
): readonly StoredAsset[] {
  const byId = asset.id ? stored.byId.get(asset.id) : undefined;
  if (byId) return [byId];
  const rank = (row: StoredAsset) => stored.createdRank.get(row.id) ?? 0;
  return identityCandidates(
    asset,
    rule,
    (kind, value) => stored.byIdentifier.get(`${kind} ${value}`),
    (a, b) => rank(a) - rank(b),
  );
}

/**
 * merge matches by id, then by identity: the best candidate that no other item of the payload
 * takes (`taken`). So a payload listing one ip twice makes two assets, and matches them again
 * one to one when sent again, as a repeated run must. A match by id is returned even when
 * taken: planMerge refuses it.
 */
function storedMatch(
  asset: IngestAsset,
  stored: MatchedStore,
  rule: MatchRule,
  taken: (id: string) => boolean,
): StoredAsset | undefined {
  const candidates = storedCandidates(asset, stored, rule);
  if (asset.id && stored.byId.has(asset.id)) return candidates[0];
  return candidates.find((candidate) => !taken(candidate.id));
}

function emptyPlan(): AssetPlan {
  return {
    creates: [],
    updates: [],
    unchanged: [],
    sourceAdds: [],
    findingPlans: new Map(),
    findingsSeenAsListed: [],
    vulnerabilityLists: new Map(),
    serviceLists: new Map(),
    replacedServiceLists: [],
    ids: [],
    matched: new Map(),
    counts: {
      assetsCreated: 0,
      assetsUpdated: 0,
      assetsUnchanged: 0,
      vulnerabilities: 0,
      findingsOpened: 0,
      findingsReopened: 0,
      findingsFixed: 0,
    },
  };
}

function withCounts(plan: AssetPlan): AssetPlan {
  let vulnerabilities = 0;
  for (const list of plan.vulnerabilityLists.values()) vulnerabilities += list.length;
  let findingsOpened = 0;
  let findingsReopened = 0;
  let findingsFixed = 0;
  for (const findings of plan.findingPlans.values()) {
    findingsOpened += findings.opened.length;
    findingsReopened += findings.reopened.length;
    findingsFixed += findings.fixed.length;
  }
  plan.counts = {
    assetsCreated: plan.creates.length,
    assetsUpdated: plan.updates.length,
    assetsUnchanged: plan.unchanged.length,
    vulnerabilities,
    findingsOpened,
    findingsReopened,
    findingsFixed,
  };
  return plan;
}

const assetName = (index: number, context: PlanContext) =>
  (context.itemName ?? jsonItemName)('assets', index);

/** Adds the row of a new asset to `plan`; answers its id. */
function create(asset: IngestAsset, plan: AssetPlan, context: PlanContext): string {
  const { fields } = asset;
  if (fields.name === undefined) {
    throw new InvalidInputError(
      `${assetName(asset.index, context)}.name is required to create an asset`,
    );
  }
  const id = asset.id ?? context.newId();
  const row: Record<string, unknown> = { id };
  for (const field of ASSET_FIELDS) row[field] = fields[field] ?? null;
  Object.assign(row, identityColumns(asset, null));
  row.source = context.source;
  plan.creates.push(row as unknown as AssetRow);
  if (asset.vulnerabilities) {
    plan.findingPlans.set(
      id,
      planFindings([], asset.vulnerabilities, context.source, context.newId),
    );
    plan.vulnerabilityLists.set(id, asset.vulnerabilities);
  }
  if (asset.services) plan.serviceLists.set(id, asset.services);
  return id;
}

/**
 * The ip and identity columns of the item's asset (`stored`: the asset it updates, null for a
 * new one): ip and addresses kept in step (resolveAddresses), a list not given kept as stored.
 */
function identityColumns(
  asset: IngestAsset,
  stored: StoredAsset | null,
): Pick<AssetRow, 'ip' | ListColumn> {
  const given = asset.identity ?? {};
  const resolved = resolveAddresses(
    asset.fields.ip,
    given.addresses,
    identityValues(stored?.addresses),
  );
  // Both given and not agreeing was refused when the item was read.
  if ('problem' in resolved) throw new InvalidInputError(resolved.problem);
  const listText = (list: readonly string[] | undefined, storedText: string | undefined) =>
    list !== undefined ? identityText(list) : (storedText ?? '');
  return {
    ip: resolved.ip,
    addresses: identityText(resolved.addresses),
    mac_addresses: listText(given.macAddresses, stored?.mac_addresses),
    hostnames: listText(given.hostnames, stored?.hostnames),
    tags: listText(given.tags, stored?.tags),
  };
}

/** The stored row with the item's fields applied (and the source, when there is one). */
function mergedRow(stored: StoredAsset, asset: IngestAsset, source: string | null): AssetRow {
  const { fields } = asset;
  const merged: Record<string, unknown> = { id: stored.id };
  for (const field of ASSET_FIELDS) {
    const value = fields[field];
    merged[field] = value !== undefined ? value : stored[field];
  }
  Object.assign(merged, identityColumns(asset, stored));
  merged.source = source ?? stored.source;
  return merged as unknown as AssetRow;
}

function sameRow(a: AssetRow, b: AssetRow): boolean {
  return (
    a.source === b.source &&
    ASSET_FIELDS.every((field) => a[field] === b[field]) &&
    LIST_COLUMNS.every((column) => a[column] === b[column])
  );
}

/** Whether two service lists hold the same records, whatever their order. */
export function sameServices(
  stored: readonly ServiceRow[],
  given: readonly IngestService[],
): boolean {
  if (stored.length !== given.length) return false;
  const key = (service: { port: number; protocol: string }) =>
    `${service.port}/${service.protocol}`;
  const byKey = new Map(stored.map((row) => [key(row), row]));
  return given.every((item) => {
    const row = byKey.get(key(item));
    return (
      row !== undefined &&
      row.name === item.name &&
      row.product === item.product &&
      row.version === item.version
    );
  });
}

/**
 * A list an item gives (vulnerabilities, services) replaces the matched asset's stored one
 * when they differ: noted in `lists` and `replaced`. Answers the stored list replaced, or null
 * when the stored list stays (none given, or an equal one: the same payload twice writes
 * nothing).
 */
function replaceList<S, G>(
  assetId: string,
  given: G[] | undefined,
  storedLists: ReadonlyMap<string, S[]>,
  same: (stored: readonly S[], given: readonly G[]) => boolean,
  lists: Map<string, G[]>,
  replaced: string[],
): S[] | null {
  if (!given) return null;
  const storedList = storedLists.get(assetId) ?? [];
  if (same(storedList, given)) return null;
  lists.set(assetId, given);
  replaced.push(assetId);
  return storedList;
}

/**
 * The item's vulnerability list (when it has one) planned against the matched asset's stored
 * findings, into `plan`. Answers the asset's vulnerabilities before, when they change (the
 * list shown: open and accepted findings, compared as a set); else null.
 */
function planAssetFindings(
  assetId: string,
  asset: IngestAsset,
  stored: StoredAssets,
  plan: AssetPlan,
  context: PlanContext,
): ListedVulnerability[] | null {
  if (!asset.vulnerabilities) return null;
  if (stored.findingsAsListed.has(findingsAsListedKey(asset.index, assetId))) {
    plan.findingsSeenAsListed.push(assetId);
    return null;
  }
  const findings = planFindings(
    stored.findings.get(assetId) ?? [],
    asset.vulnerabilities,
    context.source,
    context.newId,
  );
  plan.findingPlans.set(assetId, findings);
  const { shown } = findings;
  // A false positive's values may change while the list shown stays the same.
  if (shown === null || sameListed(shown.before, shown.after)) return null;
  plan.vulnerabilityLists.set(assetId, shown.after);
  return shown.before;
}

/**
 * append and replace: every item is a new asset. `taken` holds the slice's ids that name a
 * stored asset, their own or merged into it (append; none in replace, where the store was
 * emptied first).
 */
export function planCreateAll(
  assets: readonly IngestAsset[],
  taken: ReadonlySet<string>,
  context: PlanContext,
): AssetPlan {
  const clash = assets.find((asset) => asset.id && taken.has(asset.id));
  if (clash) {
    throw new ConflictError(`${assetName(clash.index, context)}.id ${clash.id} already exists`);
  }
  const plan = emptyPlan();
  for (const asset of assets) plan.ids.push(create(asset, plan, context));
  return withCounts(plan);
}

/**
 * merge: each item updates the stored asset it matches (storedMatch), else is created.
 * `matchedBefore`: the stored assets earlier slices matched, and the index of the item.
 * A matched asset changes when a field, its source, its vulnerability or service list (each
 * compared as a set) or its provenance does (the payload's source added to its `sources`, its first sighting); else it is
 * unchanged, and only its last sighting moves.
 */
export function planMerge(
  assets: readonly IngestAsset[],
  stored: StoredAssets,
  matchedBefore: ReadonlyMap<string, number>,
  context: PlanContext,
): AssetPlan {
  const plan = emptyPlan();
  const { source } = context;
  // An ip matches none of the assets the slice's items name by id, nor one already matched.
  const namedById = new Set<string>();
  // By the stored id: an item may name it by an id merged into it.
  for (const asset of assets) {
    const named = asset.id ? stored.byId.get(asset.id) : undefined;
    if (named) namedById.add(named.id);
  }
  const taken = (id: string) => namedById.has(id) || matchedBefore.has(id) || plan.matched.has(id);
  for (const asset of assets) {
    const match = storedMatch(asset, stored, context.match, taken);
    if (!match) {
      plan.ids.push(create(asset, plan, context));
      continue;
    }
    const earlier = matchedBefore.get(match.id) ?? plan.matched.get(match.id);
    if (earlier !== undefined) {
      throw new InvalidInputError(
        `${assetName(asset.index, context)} matches the same stored asset (${match.id}) as ${assetName(earlier, context)}`,
      );
    }
    plan.matched.set(match.id, asset.index);
    plan.ids.push(match.id);

    const after = mergedRow(match, asset, source);
    const vulnerabilitiesBefore = planAssetFindings(match.id, asset, stored, plan, context);
    const servicesBefore = replaceList(
      match.id,
      asset.services,
      stored.services,
      sameServices,
      plan.serviceLists,
      plan.replacedServiceLists,
    );
    let sourcesBefore: string[] | null = null;
    const firstSeen = source !== null && !match.seen;
    if (source !== null && !stored.sourceHolders.has(match.id)) {
      const sources = stored.sources.get(match.id) ?? { names: [], next: 0 };
      if (!sources.names.includes(source)) {
        sourcesBefore = sources.names;
        plan.sourceAdds.push([match.id, sources.next]);
      }
    }
    if (
      !sameRow(match, after) ||
      vulnerabilitiesBefore !== null ||
      servicesBefore !== null ||
      sourcesBefore !== null ||
      firstSeen
    ) {
      plan.updates.push({
        before: match,
        after,
        sourcesBefore,
        firstSeen,
        vulnerabilitiesBefore,
        servicesBefore,
      });
    } else {
      plan.unchanged.push(match.id);
    }
  }
  return withCounts(plan);
}
