import type { AssetRow, VulnerabilityRow } from '../../assets/asset-rows.js';
import type { IngestAsset } from '../ingest-payload.js';
import { chunks, idsPerStatement, placeholders, type IngestLookups } from '../ingest-sql.js';
import type { RelationRow } from '../plan/ingest-plan.js';
import { ASSET_FIELDS, storedMatch, type StoredAssets } from '../plan/plan-assets.js';

const ASSET_SELECT = `SELECT id, ${ASSET_FIELDS.join(', ')}, source FROM assets`;
const RELATION_SELECT =
  'SELECT id, source_asset_id, target_asset_id, type, direction, protocol, to_ports FROM relations';

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

/**
 * The match stage: the stored rows a slice names, looked up in bulk (`IN (...)` lists of
 * idsPerStatement ids), for the plan to be made against.
 */
export class StoredRows {
  private readonly perStatement: number;

  constructor(private readonly db: IngestLookups) {
    this.perStatement = idsPerStatement(db);
  }

  /** merge: the stored assets the slice may match, and the vulnerabilities of those it does. */
  async forMerge(assets: readonly IngestAsset[]): Promise<StoredAssets> {
    const byId = new Map<string, AssetRow>();
    const ids = distinct(assets, (asset) => asset.id);
    for (const row of await this.select<AssetRow>(ASSET_SELECT, 'id', ids)) byId.set(row.id, row);
    const unmatchedIps = distinct(assets, (asset) =>
      asset.id && byId.has(asset.id) ? undefined : asset.fields.ip,
    );
    const byIp = new Map<string, AssetRow>();
    for (const row of await this.select<AssetRow>(
      ASSET_SELECT,
      'ip',
      unmatchedIps,
      'ORDER BY created_at, id',
    )) {
      if (row.ip !== null && !byIp.has(row.ip)) byIp.set(row.ip, row);
    }
    const withLists = distinct(assets, (asset) =>
      asset.vulnerabilities ? storedMatch(asset, { byId, byIp })?.id : undefined,
    );
    return { byId, byIp, vulnerabilities: await this.vulnerabilities(withLists) };
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

  /** deleteStale: every stored asset, or those last written by `source`. */
  async staleCandidates(source: string | null): Promise<string[]> {
    const rows = await this.db.all<{ id: string }>(
      source === null ? 'SELECT id FROM assets' : 'SELECT id FROM assets WHERE source = ?',
      source === null ? [] : [source],
    );
    return rows.map((row) => row.id);
  }

  // As text: pg would parse a date column into a Date, while the payload holds 'YYYY-MM-DD'.
  private async vulnerabilities(assetIds: string[]): Promise<Map<string, VulnerabilityRow[]>> {
    const byAsset = new Map<string, VulnerabilityRow[]>();
    const rows = await this.select<VulnerabilityRow>(
      'SELECT asset_id, id, score, summary, CAST(published_date AS TEXT) AS published_date FROM vulnerabilities',
      'asset_id',
      assetIds,
    );
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
      // One by one: spread into push(), a hub's 150,000 relations overflowed the call stack.
      for (const row of found) rows.push(row);
    }
    return rows;
  }
}
