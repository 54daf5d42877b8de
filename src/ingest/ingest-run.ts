import type { IngestAsset, IngestPayload, IngestRelation } from './ingest-payload.js';
import type { IngestLookups, IngestSql, InsertColumn } from './ingest-sql.js';
import type { AssetRow, VulnerabilityRow } from '../assets/asset-rows.js';
import type { IngestVulnerability } from './ingest-payload.js';
import { v7 as timeOrderedUuid } from 'uuid';
import { IDS_PER_STATEMENT, PLAN_ITEMS_PER_TURN } from './ingest-tuning.js';
import {
  addCounts,
  noCounts,
  type IngestCounts,
  type PlanContext,
  type RelationRow,
} from './plan/ingest-plan.js';
import {
  ASSET_FIELDS,
  planCreateAll,
  planMerge,
  storedMatch,
  type AssetPlan,
} from './plan/plan-assets.js';
import { planRelations, relationKey } from './plan/plan-relations.js';
import { planStale } from './plan/plan-stale.js';

export type { IngestCounts } from './plan/ingest-plan.js';

const text = (name: string): InsertColumn => ({ name, type: 'text' });
const timestamps: InsertColumn[] = [
  { name: 'created_at', type: 'timestamptz' },
  { name: 'updated_at', type: 'timestamptz' },
];
const ASSET_COLUMNS: InsertColumn[] = [
  ...['id', 'name', 'ip', 'type', 'vendor', 'model'].map(text),
  { name: 'risk_score', type: 'integer' },
  ...['site', 'os_version', 'source'].map(text),
  ...timestamps,
];
const ASSET_SELECT = `SELECT id, ${ASSET_FIELDS.join(', ')}, source FROM assets`;
const RELATION_COLUMNS: InsertColumn[] = [
  ...['id', 'source_asset_id', 'target_asset_id', 'type', 'direction', 'protocol', 'to_ports'].map(
    text,
  ),
  ...timestamps,
];
const RELATION_SELECT =
  'SELECT id, source_asset_id, target_asset_id, type, direction, protocol, to_ports FROM relations';
const VULNERABILITY_COLUMNS: InsertColumn[] = [
  text('asset_id'),
  text('id'),
  { name: 'score', type: 'double precision' },
  text('summary'),
  { name: 'published_date', type: 'date' },
];

/** What deleteStale needs of the relations: those stored before, and the ones the payload kept. */
interface StoredRelations {
  /** Stored relations from the stored assets the relations name or the assets matched. */
  existing: RelationRow[];
  /** Ids of the stored relations the payload lists. */
  keptIds: Set<string>;
}

function chunks<T>(items: T[], size: number): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += size) {
    result.push(items.slice(start, start + size));
  }
  return result;
}

/** `items` mapped one by one as they are taken (by IngestSql.insert). */
function* mapped<T>(items: T[], map: (item: T) => unknown[]): Generator<unknown[]> {
  for (const item of items) yield map(item);
}

function* vulnerabilityRows(lists: Map<string, IngestVulnerability[]>): Generator<unknown[]> {
  for (const [assetId, items] of lists) {
    for (const item of items) {
      yield [assetId, item.id, item.score, item.summary, item.publishedDate];
    }
  }
}

/** The distinct values `pick` finds in `items`. */
function distinct<T>(items: readonly T[], pick: (item: T) => string | null | undefined): string[] {
  const found = new Set<string>();
  for (const item of items) {
    const value = pick(item);
    if (value) found.add(value);
  }
  return [...found];
}

/**
 * One ingestion, inside the transaction its caller opened. The assets, then the relations,
 * come in slices: each is looked up in bulk, planned (plan/), then written. Any failure
 * rolls it all back. Lookups go to `lookups`, which must show the state before the ingestion:
 * on SQLite a read-only connection beside the writer's (the writes then run in another thread
 * while the next slice is planned); else the transaction's own connection, and the writes wait
 * until every slice (of the assets, then of the relations) is planned.
 */
export class IngestRun {
  private readonly counts = noCounts();
  /** created_at and updated_at of every row written, as the database takes them. */
  private readonly now: unknown;
  private readonly context: PlanContext;
  /** Each id the payload gives, to the id it resolved to (itself, or a stored asset's by ip). */
  private readonly payloadIds = new Map<string, string>();
  /** Every resolved id: the assets the ingestion leaves stored. */
  private readonly keptAssets = new Set<string>();
  /** The stored assets matched so far (merge), and the item that matched each. */
  private readonly matchedBy = new Map<string, IngestAsset>();

  constructor(
    private readonly sql: IngestSql,
    private readonly payload: IngestPayload,
    private readonly lookups: IngestLookups = sql,
  ) {
    this.now = sql.timestamp(new Date());
    this.context = { source: payload.source, newId: () => timeOrderedUuid() };
  }

  async execute(): Promise<IngestCounts> {
    const { mode } = this.payload;

    if (mode === 'replace') {
      this.counts.relationsDeleted = await this.sql.run('DELETE FROM relations');
      await this.sql.run('DELETE FROM vulnerabilities');
      this.counts.assetsDeleted = await this.sql.run('DELETE FROM assets');
    }
    // Each slice is planned against the state before the ingestion: when the lookups would see
    // this run's own writes (one connection), the writes wait until every slice is planned.
    const deferWrites = this.lookups === this.sql;
    const deferred: AssetPlan[] = [];
    for await (const assets of this.payload.assets) {
      const plan =
        mode === 'merge'
          ? planMerge(assets, await this.storedAssets(assets), this.matchedBy, this.context)
          : planCreateAll(assets, await this.takenIds(assets), this.context);
      assets.forEach((asset, index) => {
        if (asset.id) this.payloadIds.set(asset.id, plan.ids[index]);
        this.keptAssets.add(plan.ids[index]);
      });
      for (const [id, asset] of plan.matched) this.matchedBy.set(id, asset);
      if (deferWrites) deferred.push(plan);
      else await this.writeAssetPlan(plan);
    }
    for (const plan of deferred.splice(0)) await this.writeAssetPlan(plan);

    // The lookups below cannot see the rows just written: a new asset has no stored relation,
    // and a relation end that is no payload id cannot name one (its id is new or the item's).
    const relations = await this.planAndWriteRelations(deferWrites);
    this.payloadIds.clear();
    if (mode === 'merge' && this.payload.deleteStale) {
      await this.deleteStale(relations);
    }
    return this.counts;
  }

  // ---- assets ----

  /** append: the slice's ids already stored (a clash); none in replace. */
  private async takenIds(assets: IngestAsset[]): Promise<Set<string>> {
    if (this.payload.mode !== 'append') return new Set();
    return this.existingIds(distinct(assets, (asset) => asset.id));
  }

  /** merge: the stored assets the slice may match, and the vulnerabilities of those it does. */
  private async storedAssets(assets: IngestAsset[]) {
    const byId = new Map<string, AssetRow>();
    for (const part of chunks(
      distinct(assets, (asset) => asset.id),
      this.idsPerStatement,
    )) {
      const rows = await this.lookups.all<AssetRow>(
        `${ASSET_SELECT} WHERE id IN (${part.map(() => '?').join(', ')})`,
        part,
      );
      for (const row of rows) byId.set(row.id, row);
    }
    const unmatchedIps = distinct(assets, (asset) =>
      asset.id && byId.has(asset.id) ? undefined : asset.fields.ip,
    );
    const byIp = new Map<string, AssetRow>();
    for (const part of chunks(unmatchedIps, this.idsPerStatement)) {
      const rows = await this.lookups.all<AssetRow>(
        `${ASSET_SELECT} WHERE ip IN (${part.map(() => '?').join(', ')}) ORDER BY created_at, id`,
        part,
      );
      for (const row of rows) if (row.ip !== null && !byIp.has(row.ip)) byIp.set(row.ip, row);
    }
    const withLists = distinct(assets, (asset) =>
      asset.vulnerabilities ? storedMatch(asset, { byId, byIp })?.id : undefined,
    );
    return { byId, byIp, vulnerabilities: await this.storedVulnerabilities(withLists) };
  }

  private async writeAssetPlan(plan: AssetPlan): Promise<void> {
    const assetRow = (row: AssetRow) => [
      row.id,
      ...ASSET_FIELDS.map((field) => row[field]),
      row.source,
      this.now,
      this.now,
    ];
    await this.sql.insert('assets', ASSET_COLUMNS, mapped(plan.creates, assetRow));
    // An upsert on the primary key updates many rows in one statement; created_at stays.
    const assignments = [...ASSET_FIELDS, 'source', 'updated_at']
      .map((column) => `${column} = excluded.${column}`)
      .join(', ');
    await this.sql.insert(
      'assets',
      ASSET_COLUMNS,
      mapped(plan.updates, assetRow),
      `ON CONFLICT (id) DO UPDATE SET ${assignments}`,
    );
    for (const part of chunks(plan.replacedLists, this.idsPerStatement)) {
      await this.sql.run(
        `DELETE FROM vulnerabilities WHERE asset_id IN (${part.map(() => '?').join(', ')})`,
        part,
      );
    }
    await this.sql.insert(
      'vulnerabilities',
      VULNERABILITY_COLUMNS,
      vulnerabilityRows(plan.vulnerabilityLists),
    );
    addCounts(this.counts, plan.counts);
  }

  // ---- vulnerabilities ----

  // As text: pg would parse a date column into a Date, while the payload holds 'YYYY-MM-DD'.
  private async storedVulnerabilities(assetIds: string[]) {
    const byAsset = new Map<string, VulnerabilityRow[]>();
    for (const part of chunks(assetIds, this.idsPerStatement)) {
      const rows = await this.lookups.all<VulnerabilityRow>(
        `SELECT asset_id, id, score, summary, CAST(published_date AS TEXT) AS published_date FROM vulnerabilities WHERE asset_id IN (${part
          .map(() => '?')
          .join(', ')})`,
        part,
      );
      for (const row of rows) {
        const list = byAsset.get(row.asset_id);
        if (list) list.push(row);
        else byAsset.set(row.asset_id, [row]);
      }
    }
    return byAsset;
  }

  // ---- relations ----

  /**
   * Reads, looks up and plans the relations slice by slice, and writes each slice's rows once
   * it is planned (unless `deferWrites`: then once every slice is). Stored assets are looked up
   * as a slice first names them, with their stored relations (merge), before any row naming
   * them is written: the lookups never see this run's own relations.
   */
  private async planAndWriteRelations(deferWrites: boolean): Promise<StoredRelations> {
    const { payloadIds } = this;
    const { mode } = this.payload;
    const storedRefs = new Map<string, boolean>();
    const stored: StoredRelations = { existing: [], keptIds: new Set() };
    const storedByKey = new Map<string, RelationRow>();
    const addExisting = async (sourceIds: string[]) => {
      if (mode !== 'merge') return;
      // In turns: keying the stored relations of 100,000 matched assets at once held the event
      // loop for over 100 ms (health probes waited).
      await this.forEachLettingOthersRun(await this.relationsFrom(sourceIds), (row) => {
        stored.existing.push(row);
        const key = relationKey(row.source_asset_id, row.target_asset_id, row.type);
        if (!storedByKey.has(key)) storedByKey.set(key, row);
      });
    };
    // Only stored assets have stored relations: those the items matched, and those referred to.
    await addExisting([...this.matchedBy.keys()]);
    const seenBefore = new Map<string, number>();
    const deferred: RelationRow[][][] = [];

    for await (const relations of this.payload.relations) {
      // Ends that are not payload ids must name stored assets (not in replace: those go).
      if (mode !== 'replace') {
        const refs = this.refsOutsidePayload(relations, storedRefs);
        const found = await this.existingIds(refs);
        for (const ref of refs) storedRefs.set(ref, found.has(ref));
        await addExisting([...found].filter((id) => !this.matchedBy.has(id)));
      }
      const plan = planRelations(
        relations,
        mode,
        { payloadIds, storedRefs, storedByKey, seenBefore },
        this.context,
      );
      for (const [key, index] of plan.seen) seenBefore.set(key, index);
      for (const id of plan.kept) stored.keptIds.add(id);
      addCounts(this.counts, plan.counts);
      if (deferWrites) deferred.push([plan.creates, plan.updates]);
      else await this.writeRelations(plan.creates, plan.updates);
    }
    for (const [creates, updates] of deferred.splice(0)) {
      await this.writeRelations(creates, updates);
    }
    return stored;
  }

  /** The ends of `relations` that are no payload id and have not been looked up yet. */
  private refsOutsidePayload(relations: IngestRelation[], known: Map<string, boolean>): string[] {
    const refs = new Set<string>();
    const visit = (ref: string) => {
      if (!this.payloadIds.has(ref) && !known.has(ref)) refs.add(ref);
    };
    for (const { sourceAssetId, targetAssetId } of relations) {
      visit(sourceAssetId);
      visit(targetAssetId);
    }
    return [...refs];
  }

  private async relationsFrom(sourceIds: string[]): Promise<RelationRow[]> {
    const rows: RelationRow[] = [];
    for (const part of chunks(sourceIds, this.idsPerStatement)) {
      const found = await this.lookups.all<RelationRow>(
        `${RELATION_SELECT} WHERE source_asset_id IN (${part.map(() => '?').join(', ')}) ORDER BY created_at, id`,
        part,
      );
      // One by one: spread into push(), a hub's 150,000 relations overflowed the call stack.
      for (const row of found) rows.push(row);
    }
    return rows;
  }

  private async writeRelations(creates: RelationRow[], updates: RelationRow[]): Promise<void> {
    const relationRow = (row: RelationRow) => [
      row.id,
      row.source_asset_id,
      row.target_asset_id,
      row.type,
      row.direction,
      row.protocol,
      row.to_ports,
      this.now,
      this.now,
    ];
    await this.sql.insert('relations', RELATION_COLUMNS, mapped(creates, relationRow));
    await this.sql.insert(
      'relations',
      RELATION_COLUMNS,
      mapped(updates, relationRow),
      'ON CONFLICT (id) DO UPDATE SET direction = excluded.direction, protocol = excluded.protocol, to_ports = excluded.to_ports, updated_at = excluded.updated_at',
    );
  }

  // ---- deleteStale ----

  /**
   * Stored assets the payload does not name go (only those last written by the same source,
   * when one is given), and so do the relations among the payload's assets it does not list.
   */
  private async deleteStale(relations: StoredRelations): Promise<void> {
    const { source } = this.payload;
    const candidates = await this.sql.all<{ id: string }>(
      source === null ? 'SELECT id FROM assets' : 'SELECT id FROM assets WHERE source = ?',
      source === null ? [] : [source],
    );
    const stale = planStale(
      candidates.map((row) => row.id),
      this.keptAssets,
      relations.existing,
      relations.keptIds,
    );
    for (const part of chunks(stale.assets, this.idsPerStatement)) {
      const list = part.map(() => '?').join(', ');
      // The assets' relations are deleted (and counted) here rather than by the cascade. The
      // assets are locked first, so that no relation to them is created in between by another
      // transaction (and then deleted by the cascade, uncounted).
      if (this.sql.forUpdate) {
        await this.sql.all(
          `SELECT id FROM assets WHERE id IN (${list}) ${this.sql.forUpdate}`,
          part,
        );
      }
      this.counts.relationsDeleted += await this.sql.run(
        `DELETE FROM relations WHERE source_asset_id IN (${list}) OR target_asset_id IN (${list})`,
        [...part, ...part],
      );
      this.counts.assetsDeleted += await this.sql.run(
        `DELETE FROM assets WHERE id IN (${list})`,
        part,
      );
    }
    for (const part of chunks(stale.relations, this.idsPerStatement)) {
      this.counts.relationsDeleted += await this.sql.run(
        `DELETE FROM relations WHERE id IN (${part.map(() => '?').join(', ')})`,
        part,
      );
    }
  }

  // ---- helpers ----

  /**
   * Visits a hundred thousand items in turns of a few thousand, letting other requests be
   * served in between (where the connection allows it), as statements do.
   */
  private async forEachLettingOthersRun<T>(items: T[], visit: (item: T) => void): Promise<void> {
    for (let start = 0; start < items.length; start += PLAN_ITEMS_PER_TURN) {
      if (start > 0) await this.sql.letOtherRequestsRun();
      const end = Math.min(items.length, start + PLAN_ITEMS_PER_TURN);
      for (let index = start; index < end; index++) visit(items[index]);
    }
  }

  private async existingIds(ids: string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (const part of chunks(ids, this.idsPerStatement)) {
      const rows = await this.lookups.all<{ id: string }>(
        `SELECT id FROM assets WHERE id IN (${part.map(() => '?').join(', ')})`,
        part,
      );
      for (const row of rows) found.add(row.id);
    }
    return found;
  }

  /** How many ids one `IN (...)` lookup or delete binds. */
  private get idsPerStatement(): number {
    return Math.min(IDS_PER_STATEMENT, this.lookups.maxParams);
  }
}
