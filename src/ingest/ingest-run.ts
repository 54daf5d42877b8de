import { BadRequestException, ConflictException } from '@nestjs/common';
import type {
  IngestAsset,
  IngestAssetFields,
  IngestPayload,
  IngestRelation,
  IngestVulnerability,
} from './ingest-payload.js';
import type { IngestLookups, IngestSql, InsertColumn } from './ingest-sql.js';
import type { AssetRow, VulnerabilityRow } from '../assets/asset-rows.js';
import { v7 as timeOrderedUuid } from 'uuid';
import { IDS_PER_STATEMENT, PLAN_ITEMS_PER_TURN } from './ingest-tuning.js';

export interface IngestCounts {
  assetsCreated: number;
  assetsUpdated: number;
  assetsDeleted: number;
  relationsCreated: number;
  relationsUpdated: number;
  relationsDeleted: number;
  vulnerabilities: number;
}

interface RelationRow {
  id: string;
  source_asset_id: string;
  target_asset_id: string;
  type: string;
  direction: string;
  protocol: string | null;
  to_ports: string | null;
}

const ASSET_FIELDS = [
  'name',
  'ip',
  'type',
  'vendor',
  'model',
  'risk_score',
  'site',
  'os_version',
] as const;
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

/** What to write for a slice of the payload's assets. */
interface AssetSlicePlan {
  /** Insert rows of new assets, in ASSET_COLUMNS order. */
  creates: unknown[][];
  updates: AssetRow[];
  /** The vulnerability list to store, by asset id. */
  vulnerabilityLists: Map<string, IngestVulnerability[]>;
  /** Matched assets whose stored list the new one replaces. */
  replacedLists: string[];
}

/** What deleteStale needs of the relations: those stored before, and the ones the payload kept. */
interface RelationsPlan {
  /** Stored relations from the stored assets the relations name or the assets matched. */
  existing: RelationRow[];
  /** Ids of the stored relations the payload lists. */
  keptIds: Set<string>;
}

/** Where the payload's assets went, filled in as the items are planned. */
interface ResolvedAssets {
  /** Each id the payload gives, to the id it resolved to (itself, or a stored asset's by ip). */
  byPayloadId: Map<string, string>;
  /** Every resolved id: the assets the ingestion leaves stored. */
  all: Set<string>;
}

function resolvedAssets(): ResolvedAssets {
  return { byPayloadId: new Map(), all: new Set() };
}

function resolveAsset(resolved: ResolvedAssets, asset: IngestAsset, id: string): void {
  if (asset.id) resolved.byPayloadId.set(asset.id, id);
  resolved.all.add(id);
}

const relationKey = (source: string, target: string, type: string) =>
  `${source}\u0000${target}\u0000${type}`;

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
 * One ingestion, inside the transaction its caller opened. The assets, then the relations,
 * come in slices: each is looked up in bulk, checked and planned, then written. Any failure
 * rolls it all back. Lookups go to `lookups`, which must show the state before the ingestion:
 * on SQLite a read-only connection beside the writer's (the writes then run in another thread
 * while the next slice is planned); else the transaction's own connection, and the writes wait
 * until every slice (of the assets, then of the relations) is planned.
 */
export class IngestRun {
  private readonly counts: IngestCounts = {
    assetsCreated: 0,
    assetsUpdated: 0,
    assetsDeleted: 0,
    relationsCreated: 0,
    relationsUpdated: 0,
    relationsDeleted: 0,
    vulnerabilities: 0,
  };
  /** created_at and updated_at of every row written, as the database takes them. */
  private readonly now: unknown;
  /** Where the payload's assets went, slice after slice. */
  private readonly resolved = resolvedAssets();
  /** The stored assets matched so far (merge), and the item that matched each. */
  private readonly matchedBy = new Map<string, IngestAsset>();

  constructor(
    private readonly sql: IngestSql,
    private readonly payload: IngestPayload,
    private readonly lookups: IngestLookups = sql,
  ) {
    this.now = sql.timestamp(new Date());
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
    const deferred: AssetSlicePlan[] = [];
    for await (const assets of this.payload.assets) {
      const plan =
        mode === 'merge' ? await this.planMerge(assets) : await this.planCreateAll(assets);
      if (deferWrites) deferred.push(plan);
      else await this.writeAssetPlan(plan);
    }
    for (const plan of deferred.splice(0)) await this.writeAssetPlan(plan);
    const keptAssets = this.resolved.all;

    // The lookups below cannot see the rows just written: a new asset has no stored relation,
    // and a relation end that is no payload id cannot name one (its id is new or the item's).
    const relations = await this.planRelations(deferWrites);
    this.resolved.byPayloadId.clear();
    if (mode === 'merge' && this.payload.deleteStale) {
      await this.deleteStale(keptAssets, relations);
    }
    return this.counts;
  }

  // ---- assets ----

  private async writeAssetPlan(plan: AssetSlicePlan): Promise<void> {
    await this.writeAssets(plan.creates, plan.updates);
    await this.writeVulnerabilities(plan.vulnerabilityLists, plan.replacedLists);
  }

  private async planCreateAll(assets: IngestAsset[]): Promise<AssetSlicePlan> {
    const creates: unknown[][] = [];
    const vulnerabilityLists = new Map<string, IngestVulnerability[]>();
    if (this.payload.mode === 'append') {
      const taken = await this.existingIds(await this.distinct(assets, (asset) => asset.id));
      const clash = assets.find((asset) => asset.id && taken.has(asset.id));
      if (clash)
        throw new ConflictException(`assets[${clash.index}].id ${clash.id} already exists`);
    }
    await this.forEachLettingOthersRun(assets, (asset) => {
      const id = this.create(asset, creates);
      resolveAsset(this.resolved, asset, id);
      if (asset.vulnerabilities) vulnerabilityLists.set(id, asset.vulnerabilities);
    });
    // New assets have no stored list to replace, nor stored relations.
    return { creates, updates: [] as AssetRow[], vulnerabilityLists, replacedLists: [] };
  }

  /** merge: match by id, then by ip (the earliest created), else create. */
  private async planMerge(assets: IngestAsset[]): Promise<AssetSlicePlan> {
    const byId = new Map<string, AssetRow>();
    for (const part of chunks(
      await this.distinct(assets, (asset) => asset.id),
      this.idsPerStatement,
    )) {
      const rows = await this.lookups.all<AssetRow>(
        `${ASSET_SELECT} WHERE id IN (${part.map(() => '?').join(', ')})`,
        part,
      );
      for (const row of rows) byId.set(row.id, row);
    }
    const unmatchedIps = await this.distinct(assets, (asset) =>
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

    const { matchedBy } = this;
    const matchedRows = new Map<string, AssetRow>();
    const creates: unknown[][] = [];
    const updates: AssetRow[] = [];
    const vulnerabilityLists = new Map<string, IngestVulnerability[]>();
    const matchedWithVulnerabilities: string[] = [];
    await this.forEachLettingOthersRun(assets, (asset) => {
      const match =
        (asset.id ? byId.get(asset.id) : undefined) ??
        (asset.fields.ip ? byIp.get(asset.fields.ip) : undefined);
      if (!match) {
        const id = this.create(asset, creates);
        resolveAsset(this.resolved, asset, id);
        if (asset.vulnerabilities) vulnerabilityLists.set(id, asset.vulnerabilities);
        return;
      }
      const earlier = matchedBy.get(match.id);
      if (earlier) {
        throw new BadRequestException(
          `assets[${asset.index}] matches the same stored asset (${match.id}) as assets[${earlier.index}]`,
        );
      }
      matchedBy.set(match.id, asset);
      matchedRows.set(match.id, match);
      resolveAsset(this.resolved, asset, match.id);
      const merged = this.mergedRow(match, asset.fields);
      if (merged) updates.push(merged);
      if (asset.vulnerabilities) {
        vulnerabilityLists.set(match.id, asset.vulnerabilities);
        matchedWithVulnerabilities.push(match.id);
      }
    });

    // A list equal to the stored one is no change: running the same payload twice writes nothing.
    const stored = await this.storedVulnerabilities(matchedWithVulnerabilities);
    const updated = new Set(updates.map((row) => row.id));
    await this.forEachLettingOthersRun(matchedWithVulnerabilities, (id) => {
      if (sameVulnerabilities(stored.get(id) ?? [], vulnerabilityLists.get(id)!)) {
        vulnerabilityLists.delete(id);
      } else if (!updated.has(id)) {
        // A new list is a change of the asset even when its own fields are the same.
        updates.push(this.mergedRow(matchedRows.get(id)!, matchedBy.get(id)!.fields, true)!);
      }
    });
    const replacedLists = matchedWithVulnerabilities.filter((id) => vulnerabilityLists.has(id));
    return { creates, updates, vulnerabilityLists, replacedLists };
  }

  /** Adds the insert row (values in ASSET_COLUMNS order) of a new asset; answers its id. */
  private create(asset: IngestAsset, creates: unknown[][]): string {
    const { fields } = asset;
    if (fields.name === undefined) {
      throw new BadRequestException(`assets[${asset.index}].name is required to create an asset`);
    }
    const id = asset.id ?? timeOrderedUuid();
    creates.push([
      id,
      fields.name,
      fields.ip ?? null,
      fields.type ?? null,
      fields.vendor ?? null,
      fields.model ?? null,
      fields.risk_score ?? null,
      fields.site ?? null,
      fields.os_version ?? null,
      this.payload.source,
      this.now,
      this.now,
    ]);
    return id;
  }

  /** The stored row with the item's fields applied, or null when nothing would change. */
  private mergedRow(stored: AssetRow, fields: IngestAssetFields, force = false): AssetRow | null {
    const merged: AssetRow = { ...stored, ...fields };
    if (this.payload.source !== null) merged.source = this.payload.source;
    const changed =
      force ||
      merged.source !== stored.source ||
      ASSET_FIELDS.some((field) => merged[field] !== stored[field]);
    return changed ? merged : null;
  }

  private async writeAssets(creates: unknown[][], updates: AssetRow[]): Promise<void> {
    this.counts.assetsCreated += await this.sql.insert('assets', ASSET_COLUMNS, creates);
    // An upsert on the primary key updates many rows in one statement; created_at stays.
    const assignments = [...ASSET_FIELDS, 'source', 'updated_at']
      .map((column) => `${column} = excluded.${column}`)
      .join(', ');
    this.counts.assetsUpdated += await this.sql.insert(
      'assets',
      ASSET_COLUMNS,
      mapped(updates, (row) => [
        row.id,
        ...ASSET_FIELDS.map((field) => row[field]),
        row.source,
        this.now,
        this.now,
      ]),
      `ON CONFLICT (id) DO UPDATE SET ${assignments}`,
    );
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

  /** Each given list replaces the asset's stored one (`replaced`: the matched assets' ids). */
  private async writeVulnerabilities(
    lists: Map<string, IngestVulnerability[]>,
    replaced: string[],
  ): Promise<void> {
    for (const part of chunks(replaced, this.idsPerStatement)) {
      await this.sql.run(
        `DELETE FROM vulnerabilities WHERE asset_id IN (${part.map(() => '?').join(', ')})`,
        part,
      );
    }
    this.counts.vulnerabilities += await this.sql.insert(
      'vulnerabilities',
      VULNERABILITY_COLUMNS,
      vulnerabilityRows(lists),
    );
  }

  // ---- relations ----

  /**
   * Reads, checks and plans the relations slice by slice, and writes each slice's rows once it
   * is planned (unless `deferWrites`: then once every slice is). Stored assets are looked up as
   * a slice first names them, with their stored relations (merge), before any row naming them
   * is written: the lookups never see this run's own relations.
   */
  private async planRelations(deferWrites: boolean): Promise<RelationsPlan> {
    const payloadIds = this.resolved.byPayloadId;
    const merge = this.payload.mode === 'merge';
    // Refs outside the payload, once looked up: whether they name a stored asset.
    const storedRefs = new Map<string, boolean>();
    const plan: RelationsPlan = { existing: [], keptIds: new Set() };
    const existingByKey = new Map<string, RelationRow>();
    const addExisting = async (sourceIds: string[]) => {
      if (!merge) return;
      // In turns: keying the stored relations of 100,000 matched assets at once held the event
      // loop for over 100 ms (health probes waited).
      await this.forEachLettingOthersRun(await this.relationsFrom(sourceIds), (row) => {
        plan.existing.push(row);
        const key = relationKey(row.source_asset_id, row.target_asset_id, row.type);
        if (!existingByKey.has(key)) existingByKey.set(key, row);
      });
    };
    // Only stored assets have stored relations: those the items matched, and those referred to.
    await addExisting([...this.matchedBy.keys()]);
    const resolve = (relation: IngestRelation, end: 'sourceAssetId' | 'targetAssetId') => {
      const ref = relation[end];
      const id = payloadIds.get(ref) ?? (storedRefs.get(ref) ? ref : undefined);
      if (id === undefined) {
        throw new BadRequestException(`relations[${relation.index}].${end} refers to no asset`);
      }
      return id;
    };
    const seen = new Map<string, number>();
    const deferred: { creates: unknown[][]; updates: RelationRow[] }[] = [];

    for await (const relations of this.payload.relations) {
      // Ends that are not payload ids must name stored assets (not in replace: those go).
      if (this.payload.mode !== 'replace') {
        const refs = await this.refsOutsidePayload(relations, payloadIds, storedRefs);
        const found = await this.existingIds(refs);
        for (const ref of refs) storedRefs.set(ref, found.has(ref));
        await addExisting([...found].filter((id) => !this.matchedBy.has(id)));
      }
      const creates: unknown[][] = [];
      const updates: RelationRow[] = [];
      await this.forEachLettingOthersRun(relations, (relation) => {
        const source = resolve(relation, 'sourceAssetId');
        const target = resolve(relation, 'targetAssetId');
        if (source === target) {
          throw new BadRequestException(
            `relations[${relation.index}] links an asset to itself once its ends are resolved`,
          );
        }
        const key = relationKey(source, target, relation.type);
        if (merge) {
          const first = seen.get(key);
          if (first !== undefined) {
            throw new BadRequestException(
              `relations[${relation.index}] repeats relations[${first}]`,
            );
          }
          seen.set(key, relation.index);
        }
        const match = existingByKey.get(key);
        if (!match) {
          // The insert row, in RELATION_COLUMNS order.
          creates.push([
            timeOrderedUuid(),
            source,
            target,
            relation.type,
            relation.direction ?? 'bi',
            relation.protocol ?? null,
            relation.toPorts ?? null,
            this.now,
            this.now,
          ]);
          return;
        }
        plan.keptIds.add(match.id);
        const merged: RelationRow = {
          ...match,
          direction: relation.direction ?? match.direction,
          protocol: relation.protocol !== undefined ? relation.protocol : match.protocol,
          to_ports: relation.toPorts !== undefined ? relation.toPorts : match.to_ports,
        };
        if (
          merged.direction !== match.direction ||
          merged.protocol !== match.protocol ||
          merged.to_ports !== match.to_ports
        ) {
          updates.push(merged);
        }
      });
      if (deferWrites) deferred.push({ creates, updates });
      else await this.writeRelations(creates, updates);
    }
    for (const { creates, updates } of deferred.splice(0)) {
      await this.writeRelations(creates, updates);
    }
    return plan;
  }

  /** The ends of `relations` that are no payload id and have not been looked up yet. */
  private async refsOutsidePayload(
    relations: IngestRelation[],
    payloadIds: Map<string, string>,
    known: Map<string, boolean>,
  ): Promise<string[]> {
    const refs = new Set<string>();
    const visit = (ref: string) => {
      if (!payloadIds.has(ref) && !known.has(ref)) refs.add(ref);
    };
    await this.forEachLettingOthersRun(relations, ({ sourceAssetId, targetAssetId }) => {
      visit(sourceAssetId);
      visit(targetAssetId);
    });
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

  private async writeRelations(creates: unknown[][], updates: RelationRow[]): Promise<void> {
    this.counts.relationsCreated += await this.sql.insert('relations', RELATION_COLUMNS, creates);
    this.counts.relationsUpdated += await this.sql.insert(
      'relations',
      RELATION_COLUMNS,
      mapped(updates, (row) => [
        row.id,
        row.source_asset_id,
        row.target_asset_id,
        row.type,
        row.direction,
        row.protocol,
        row.to_ports,
        this.now,
        this.now,
      ]),
      'ON CONFLICT (id) DO UPDATE SET direction = excluded.direction, protocol = excluded.protocol, to_ports = excluded.to_ports, updated_at = excluded.updated_at',
    );
  }

  // ---- deleteStale ----

  /**
   * Stored assets the payload does not name go (only those last written by the same source,
   * when one is given), and so do the relations among the payload's assets it does not list.
   */
  private async deleteStale(keptAssets: Set<string>, relations: RelationsPlan): Promise<void> {
    const { source } = this.payload;
    const candidates = await this.sql.all<{ id: string }>(
      source === null ? 'SELECT id FROM assets' : 'SELECT id FROM assets WHERE source = ?',
      source === null ? [] : [source],
    );
    const stale = candidates.map((row) => row.id).filter((id) => !keptAssets.has(id));
    for (const part of chunks(stale, this.idsPerStatement)) {
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
    const unlisted = relations.existing
      .filter(
        (row) =>
          keptAssets.has(row.source_asset_id) &&
          keptAssets.has(row.target_asset_id) &&
          !relations.keptIds.has(row.id),
      )
      .map((row) => row.id);
    for (const part of chunks(unlisted, this.idsPerStatement)) {
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

  /** The distinct values `pick` finds in `items`. */
  private async distinct<T>(
    items: T[],
    pick: (item: T) => string | null | undefined,
  ): Promise<string[]> {
    const found = new Set<string>();
    await this.forEachLettingOthersRun(items, (item) => {
      const value = pick(item);
      if (value) found.add(value);
    });
    return [...found];
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
