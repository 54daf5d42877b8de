import { groupByAsset } from '../../assets/group-by-asset.js';
import type { IngestAsset } from '../ingest-payload.js';
import { chunks, idsPerStatement, type IngestLookups } from '../../database/ingest-sql.js';
import {
  AssetStoredRows,
  type IdentifiedAssetRow,
} from '../../database/repositories/assets/asset-stored-rows.js';
import { itemIdentifiers, KEY_KINDS, type MatchRule } from './identity-match.js';
import {
  FindingStoredRows,
  type GivenVulnerabilities,
} from '../../database/repositories/findings/finding-stored-rows.js';
import { RelationStoredRows } from '../../database/repositories/relations/relation-stored-rows.js';
import type { RelationRow, StoredAsset, StoredSources } from '../plan/ingest-plan.js';
import type { AssetChange, RelationChange } from '../plan/plan-changes.js';
import { CHANGES_PER_LIST, relationChange } from '../plan/plan-changes.js';
import { findingsAsListedKey, storedCandidates, type StoredAssets } from '../plan/plan-assets.js';
import { byId, type StaleCandidate } from '../plan/plan-stale.js';

// A deleted list's entries, and one more: whether the list was cut.
const PREVIEW = CHANGES_PER_LIST + 1;

/** The distinct values `pick` finds in `items`. */
export function distinct<T>(
  items: readonly T[],
  pick: (item: T) => string | null | undefined,
): string[] {
  const found = new Set<string>();
  for (const item of items) {
    const value = pick(item);
    if (value) found.add(value);
  }
  return [...found];
}

/** The distinct values of the lists `pick` finds in `items`. */
function distinctOfAll<T>(items: readonly T[], pick: (item: T) => readonly string[]): string[] {
  const found = new Set<string>();
  for (const item of items) for (const value of pick(item)) found.add(value);
  return [...found];
}

/** The relations to or from some assets: how many, and the first ones in id order. */
export interface TouchingRelations {
  /** Counted only when asked (a dry run); else -1: the delete counts them. */
  count: number;
  first: RelationChange[];
}

/**
 * The match stage: the stored rows a slice names, looked up in bulk (`IN (...)` lists of
 * idsPerStatement ids), for the plan to be made against.
 */
export class StoredRows {
  private readonly perStatement: number;
  private readonly assets: AssetStoredRows;
  private readonly relations: RelationStoredRows;
  private readonly findings: FindingStoredRows;

  constructor(db: IngestLookups) {
    this.findings = new FindingStoredRows(db);
    this.perStatement = idsPerStatement(db);
    this.assets = new AssetStoredRows(db);
    this.relations = new RelationStoredRows(db);
  }

  /**
   * merge: the stored assets the slice may match (by the identifiers of `rule`'s keys), the
   * findings and services of those it does that carry such a list, and their `sources`
   * when the payload has a `source`.
   */
  async forMerge(
    assets: readonly IngestAsset[],
    rule: MatchRule,
    source: string | null,
  ): Promise<StoredAssets> {
    const byId = new Map<string, StoredAsset>();
    const ids = distinct(assets, (asset) => asset.id);
    for (const row of await this.assets.byId(ids)) {
      byId.set(row.id, row);
    }
    // An id merged into another asset names that asset (one lookup, only for ids not stored).
    const unknown = ids.filter((id) => !byId.has(id));
    if (unknown.length > 0) {
      for (const { alias, ...row } of await this.assets.byAlias(unknown)) byId.set(alias, row);
    }
    const identified = await this.byIdentifiers(
      assets.filter((asset) => !(asset.id && byId.has(asset.id))),
      rule,
    );
    // Which candidate an item takes is the plan's to decide: each one's lists are read.
    const candidateIds = new Map(
      assets.map((asset) => [
        asset,
        storedCandidates(asset, { byId, ...identified }, rule).map((row) => row.id),
      ]),
    );
    const candidates = (asset: IngestAsset) => candidateIds.get(asset)!;
    const withServices = distinctOfAll(assets, (asset) =>
      asset.services ? candidates(asset) : [],
    );
    const { asListed, toRead } = await this.findingsAsListed(assets, candidates, source);
    const named = source !== null ? distinctOfAll(assets, candidates) : [];
    const sourceHolders = new Set(source !== null ? await this.assets.holding(source, named) : []);
    return {
      byId,
      ...identified,
      findingsAsListed: asListed,
      findings: await this.findings.ofAssets(toRead),
      services: groupByAsset(await this.assets.services(withServices)),
      sourceHolders,
      sources: await this.sources(named.filter((id) => !sourceHolders.has(id))),
    };
  }

  /**
   * Which items' vulnerability lists leave a candidate's findings as they are
   * (FindingStoredRows.asListed), by findingsAsListedKey; and the candidates whose findings
   * are read, for the lists that do not.
   */
  private async findingsAsListed(
    assets: readonly IngestAsset[],
    candidates: (asset: IngestAsset) => string[],
    source: string | null,
  ): Promise<{ asListed: Set<string>; toRead: string[] }> {
    const given: GivenVulnerabilities[] = [];
    const items: number[] = [];
    for (const asset of assets) {
      const listed = asset.vulnerabilities;
      if (!listed) continue;
      for (const assetId of candidates(asset)) {
        given.push({ assetId, listed });
        items.push(asset.index);
      }
    }
    const same = await this.findings.asListed(given, source);
    const asListed = new Set<string>();
    const toRead = new Set<string>();
    given.forEach(({ assetId }, k) => {
      if (same[k]) asListed.add(findingsAsListedKey(items[k], assetId));
      else toRead.add(assetId);
    });
    return { asListed, toRead: [...toRead] };
  }

  /**
   * The stored assets holding an identifier of `assets` for each key of `rule`, by `kind value`,
   * and the creation order of those found.
   */
  private async byIdentifiers(
    assets: readonly IngestAsset[],
    rule: MatchRule,
  ): Promise<Pick<StoredAssets, 'byIdentifier' | 'createdRank'>> {
    const byIdentifier = new Map<string, StoredAsset[]>();
    const found = new Map<string, IdentifiedAssetRow>();
    for (const key of rule.keys) {
      const kind = KEY_KINDS[key];
      const values = distinctOfAll(assets, (asset) => itemIdentifiers(asset, key));
      for (const row of await this.assets.byIdentifiers(kind, values)) {
        const asset = found.get(row.id) ?? row;
        found.set(row.id, asset);
        const holders = byIdentifier.get(`${kind} ${row.identifier}`);
        if (holders) holders.push(asset);
        else byIdentifier.set(`${kind} ${row.identifier}`, [asset]);
      }
    }
    // Text from SQLite (UTC, in order as text), Dates from pg.
    const created = (row: IdentifiedAssetRow) =>
      row.created_at instanceof Date ? row.created_at.toISOString() : row.created_at;
    const order = [...found.values()].sort(
      (a, b) => byId(created(a), created(b)) || byId(a.id, b.id),
    );
    return { byIdentifier, createdRank: new Map(order.map((row, rank) => [row.id, rank])) };
  }

  /**
   * The stored asset each of `ids` names, by id: itself when stored, else the asset it was
   * merged into (asset_aliases). Ids naming none are left out.
   */
  async storedAssetsNamed(ids: string[]): Promise<Map<string, string>> {
    const named = new Map<string, string>();
    for (const id of await this.assets.existingIds(ids)) named.set(id, id);
    // Aliases only for the ids not stored (one lookup, and none when every id is).
    const unknown = ids.filter((id) => !named.has(id));
    if (unknown.length > 0) {
      for (const { alias, id } of await this.assets.aliasTargets(unknown)) named.set(alias, id);
    }
    return named;
  }

  /** The stored relations from `sourceIds`, the earliest created first. */
  relationsFrom(sourceIds: string[]): Promise<RelationRow[]> {
    return this.relations.from(sourceIds);
  }

  /**
   * deleteStale: the stored assets `kept` leaves out, among every stored asset (without a
   * source) or those whose `sources` hold `source` (through the index on asset_sources.source),
   * with their origin and how many feeds their `sources` hold. Ids come first, then the rest
   * for the few left out only: reading it for every asset of a feed (one statement, on SQLite
   * on the event loop) would hold the event loop and memory in proportion to the feed.
   */
  async staleCandidates(
    source: string | null,
    kept: ReadonlySet<string>,
  ): Promise<StaleCandidate[]> {
    const all =
      source === null ? await this.assets.allIds() : await this.assets.idsWithSource(source);
    const left = all.filter((row) => !kept.has(row.id)).map((row) => row.id);
    return this.assets.stale(left);
  }

  /** The stored `sources` of `assetIds`, in position order, by asset id. */
  async sources(assetIds: string[]): Promise<Map<string, StoredSources>> {
    const byAsset = new Map<string, StoredSources>();
    for (const row of await this.assets.sources(assetIds)) {
      const sources = byAsset.get(row.asset_id);
      if (sources) {
        sources.names.push(row.source);
        sources.next = row.position + 1;
      } else byAsset.set(row.asset_id, { names: [row.source], next: row.position + 1 });
    }
    return byAsset;
  }

  /** `{id, name}` of `ids` (a change list's entries), in the order of `ids`. */
  async names(ids: string[]): Promise<AssetChange[]> {
    const rows = await this.assets.names(ids);
    const byAsset = new Map(rows.map((row) => [row.id, row.name]));
    return ids.map((id) => ({ id, name: byAsset.get(id) ?? '' }));
  }

  /** How many assets are stored. */
  countAssets(): Promise<number> {
    return this.assets.count();
  }

  /** How many relations are stored. */
  countRelations(): Promise<number> {
    return this.relations.count();
  }

  /** replace: the first stored assets and relations in id order (the deleted lists). */
  async firstStored(): Promise<{ assets: AssetChange[]; relations: RelationChange[] }> {
    const assets = await this.assets.firstNames(PREVIEW);
    const relations = await this.relations.first(PREVIEW);
    return { assets, relations: relations.map(relationChange) };
  }

  /**
   * The stored relations to or from `assetIds`: the first ones in id order, and with `count`
   * how many (each once, also when both ends are in `assetIds`).
   */
  async relationsTouching(assetIds: string[], count: boolean): Promise<TouchingRelations> {
    const ids = new Set<string>();
    let first: RelationRow[] = [];
    for (const part of chunks(assetIds, this.perStatement)) {
      const rows = await this.relations.touching(part, count ? null : PREVIEW);
      for (const row of rows) {
        if (count) ids.add(row.id);
        else first.push(row);
      }
      if (count) continue;
      first = dedupeFirst(first);
    }
    if (count) {
      const sorted = [...ids].sort(byId).slice(0, PREVIEW);
      first = dedupeFirst(await this.relations.byId(sorted));
    }
    return { count: count ? ids.size : -1, first: first.map(relationChange) };
  }
}

/** The first PREVIEW distinct rows of `rows` in id order. */
function dedupeFirst(rows: RelationRow[]): RelationRow[] {
  const seen = new Map(rows.map((row) => [row.id, row]));
  return [...seen.values()].sort((a, b) => byId(a.id, b.id)).slice(0, PREVIEW);
}
