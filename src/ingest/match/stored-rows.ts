import type { ServiceRow, VulnerabilityRow } from '../../assets/asset-rows.js';
import type { IngestAsset } from '../ingest-payload.js';
import {
  chunks,
  idsPerStatement,
  placeholders,
  type IngestLookups,
} from '../../database/ingest-sql.js';
import type { RelationRow, StoredAsset, StoredSources } from '../plan/ingest-plan.js';
import type { AssetChange, RelationChange } from '../plan/plan-changes.js';
import { CHANGES_PER_LIST, relationChange } from '../plan/plan-changes.js';
import { storedCandidates, type StoredAssets } from '../plan/plan-assets.js';
import { ASSET_FIELDS } from '../../database/tables/assets.table.js';
import { byId, type StaleCandidate } from '../plan/plan-stale.js';

const ASSET_SELECT = `SELECT id, ${ASSET_FIELDS.join(', ')}, source, CASE WHEN first_seen_at IS NULL THEN 0 ELSE 1 END AS seen FROM assets`;
// As text: pg would parse a date column into a Date, while the payload holds 'YYYY-MM-DD'.
const VULNERABILITY_SELECT =
  'SELECT asset_id, id, score, summary, CAST(published_date AS TEXT) AS published_date FROM vulnerabilities';
const SERVICE_SELECT = 'SELECT asset_id, port, protocol, name, product, version FROM services';
const RELATION_SELECT =
  'SELECT id, source_asset_id, target_asset_id, type, direction, protocol, to_ports FROM relations';
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

  constructor(private readonly db: IngestLookups) {
    this.perStatement = idsPerStatement(db);
  }

  /**
   * merge: the stored assets the slice may match (by ip only when `matchByIp`), the
   * vulnerabilities and services of those it does that carry such a list, and their `sources`
   * when `withSources` (the payload has a source).
   */
  async forMerge(
    assets: readonly IngestAsset[],
    matchByIp: boolean,
    withSources: boolean,
  ): Promise<StoredAssets> {
    const byId = new Map<string, StoredAsset>();
    const ids = distinct(assets, (asset) => asset.id);
    for (const row of await this.select<StoredAsset>(ASSET_SELECT, 'id', ids)) {
      byId.set(row.id, row);
    }
    const byIp = new Map<string, StoredAsset[]>();
    if (matchByIp) {
      const unmatchedIps = distinct(assets, (asset) =>
        asset.id && byId.has(asset.id) ? undefined : asset.fields.ip,
      );
      for (const row of await this.select<StoredAsset>(
        ASSET_SELECT,
        'ip',
        unmatchedIps,
        'ORDER BY created_at, id',
      )) {
        if (row.ip === null) continue;
        const holders = byIp.get(row.ip);
        if (holders) holders.push(row);
        else byIp.set(row.ip, [row]);
      }
    }
    // Which of an ip's holders an item takes is the plan's to decide: each one's lists are read.
    const candidates = (asset: IngestAsset) =>
      storedCandidates(asset, { byId, byIp }, matchByIp).map((row) => row.id);
    const withVulnerabilities = distinctOfAll(assets, (asset) =>
      asset.vulnerabilities ? candidates(asset) : [],
    );
    const withServices = distinctOfAll(assets, (asset) =>
      asset.services ? candidates(asset) : [],
    );
    return {
      byId,
      byIp,
      vulnerabilities: await this.lists<VulnerabilityRow>(
        VULNERABILITY_SELECT,
        withVulnerabilities,
      ),
      services: await this.lists<ServiceRow>(SERVICE_SELECT, withServices),
      sources: withSources ? await this.sources(distinctOfAll(assets, candidates)) : new Map(),
    };
  }

  /** Which of `ids` name stored assets. */
  async existingIds(ids: string[]): Promise<Set<string>> {
    const rows = await this.select<{ id: string }>('SELECT id FROM assets', 'id', ids);
    return new Set(rows.map((row) => row.id));
  }

  /** The stored relations from `sourceIds`, the earliest created first. */
  relationsFrom(sourceIds: string[]): Promise<RelationRow[]> {
    return this.select<RelationRow>(
      RELATION_SELECT,
      'source_asset_id',
      sourceIds,
      'ORDER BY created_at, id',
    );
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
      source === null
        ? await this.db.all<{ id: string }>('SELECT id FROM assets')
        : await this.db.all<{ id: string }>(
            'SELECT asset_id AS id FROM asset_sources WHERE source = ?',
            [source],
          );
    const left = all.filter((row) => !kept.has(row.id)).map((row) => row.id);
    return this.select<StaleCandidate>(
      'SELECT a.id, a.origin, (SELECT CAST(COUNT(*) AS INTEGER) FROM asset_sources o WHERE o.asset_id = a.id) AS "sourceCount" FROM assets a',
      'a.id',
      left,
    );
  }

  /** The stored `sources` of `assetIds`, in position order, by asset id. */
  async sources(assetIds: string[]): Promise<Map<string, StoredSources>> {
    const byAsset = new Map<string, StoredSources>();
    const rows = await this.select<{ asset_id: string; source: string; position: number }>(
      'SELECT asset_id, source, position FROM asset_sources',
      'asset_id',
      assetIds,
      'ORDER BY asset_id, position',
    );
    for (const row of rows) {
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
    const rows = await this.select<AssetChange>('SELECT id, name FROM assets', 'id', ids);
    const byAsset = new Map(rows.map((row) => [row.id, row.name]));
    return ids.map((id) => ({ id, name: byAsset.get(id) ?? '' }));
  }

  /** How many rows `table` holds. */
  async count(table: 'assets' | 'relations' | 'vulnerabilities'): Promise<number> {
    const [row] = await this.db.all<{ count: number }>(
      `SELECT CAST(COUNT(*) AS INTEGER) AS count FROM ${table}`,
    );
    return Number(row.count);
  }

  /** replace: the first stored assets and relations in id order (the deleted lists). */
  async firstStored(): Promise<{ assets: AssetChange[]; relations: RelationChange[] }> {
    const order = `ORDER BY ${this.db.idOrder} LIMIT ${PREVIEW}`;
    const assets = await this.db.all<AssetChange>(`SELECT id, name FROM assets ${order}`);
    const relations = await this.db.all<RelationRow>(`${RELATION_SELECT} ${order}`);
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
      const list = placeholders(part);
      const where = `WHERE source_asset_id IN (${list}) OR target_asset_id IN (${list})`;
      const rows = await this.db.all<RelationRow>(
        `${RELATION_SELECT} ${where} ${count ? '' : `ORDER BY ${this.db.idOrder} LIMIT ${PREVIEW}`}`,
        [...part, ...part],
      );
      for (const row of rows) {
        if (count) ids.add(row.id);
        else first.push(row);
      }
      if (count) continue;
      first = dedupeFirst(first);
    }
    if (count) {
      const sorted = [...ids].sort(byId).slice(0, PREVIEW);
      const rows = await this.select<RelationRow>(RELATION_SELECT, 'id', sorted);
      first = dedupeFirst(rows);
    }
    return { count: count ? ids.size : -1, first: first.map(relationChange) };
  }

  /** The rows `select` reads of `assetIds` (an asset's list: vulnerabilities, services), by asset id. */
  private async lists<T extends { asset_id: string }>(
    select: string,
    assetIds: string[],
  ): Promise<Map<string, T[]>> {
    const byAsset = new Map<string, T[]>();
    const rows = await this.select<T>(select, 'asset_id', assetIds);
    for (const row of rows) {
      const list = byAsset.get(row.asset_id);
      if (list) list.push(row);
      else byAsset.set(row.asset_id, [row]);
    }
    return byAsset;
  }

  /** `select` of the rows whose `column` is in `values`, a statement per idsPerStatement. */
  private async select<T>(
    select: string,
    column: string,
    values: string[],
    orderBy = '',
  ): Promise<T[]> {
    const rows: T[] = [];
    for (const part of chunks(values, this.perStatement)) {
      const found = await this.db.all<T>(
        `${select} WHERE ${column} IN (${placeholders(part)}) ${orderBy}`,
        part,
      );
      // One by one: spread into push(), a hub's many relations would overflow the call stack.
      for (const row of found) rows.push(row);
    }
    return rows;
  }
}

/** The first PREVIEW distinct rows of `rows` in id order. */
function dedupeFirst(rows: RelationRow[]): RelationRow[] {
  const seen = new Map(rows.map((row) => [row.id, row]));
  return [...seen.values()].sort((a, b) => byId(a.id, b.id)).slice(0, PREVIEW);
}
