import { setImmediate as letOtherRequestsRun } from 'node:timers/promises';
import { timeOrderedId } from '../common/ids/time-ordered-id.js';
import type { ChangeOrigin } from '../database/history/change-origin.js';
import { ChangeWriter } from './apply/change-writer.js';
import { EventWriter } from './apply/event-writer.js';
import { PlanWriter } from './apply/plan-writer.js';
import type { FindingEvents } from '../findings/finding-events.js';
import type { IngestAsset, IngestPayload, IngestRelation } from './ingest-payload.js';
import type { IngestLookups, IngestSql } from '../database/ingest-sql.js';
import { PLAN_ITEMS_PER_TURN } from '../database/ingest-tuning.js';
import { StoredRows } from './match/stored-rows.js';
import {
  addCounts,
  noCounts,
  type IngestCounts,
  type PlanContext,
  type RelationRow,
} from './plan/ingest-plan.js';
import { planCreateAll, planMerge, type AssetPlan, type StoredAssets } from './plan/plan-assets.js';
import {
  CHANGES_PER_LIST,
  ChangeLog,
  relationChange,
  type AssetChange,
  type IngestChanges,
  type RelationChange,
} from './plan/plan-changes.js';
import { planRelations, relationKey, type RelationPlan } from './plan/plan-relations.js';
import {
  byId,
  checkMaxDeletions,
  checkMaxFixes,
  planStaleAssets,
  planStaleRelations,
  type StaleAssetPlan,
} from './plan/plan-stale.js';

export type { IngestCounts } from './plan/ingest-plan.js';

/** What a run answers: the stats' counts and the change lists. */
export interface IngestOutcome {
  counts: IngestCounts;
  changes: IngestChanges;
}

/** The stored relations of the assets matched or named (merge), for the plans. */
interface StoredRelations {
  all: RelationRow[];
  byKey: Map<string, RelationRow>;
  /** Ids of those the payload lists. */
  keptIds: Set<string>;
}

/** An asset slice, with its stored rows (merge) or its ids already stored (append). */
interface LookedUpSlice {
  assets: IngestAsset[];
  stored: Promise<StoredAssets | Set<string>>;
}

/** deleteStale, decided once the assets are planned. */
interface StaleDecision {
  assets: StaleAssetPlan;
  deleted: Set<string>;
  /** `{id, name}` of the first deleted assets, read before they are. */
  deletedNames: AssetChange[];
  /** The first stored relations to or from the deleted assets, and (dry run) how many. */
  touching: { count: number; first: RelationChange[] };
  /** Relations this run creates to a deleted asset (they go with it): how many, the first. */
  createdThenDeleted: { count: number; first: RelationChange[] };
}

/**
 * One ingestion: the assets, then the relations, slice by slice through match (match/), plan
 * (plan/) and apply (apply/); deleteStale's decision once the assets are planned (so that
 * maxDeletions refuses the run before the writes it would have to undo), its writes last.
 * Any failure rolls it all back. Lookups go to `lookups`, which must show the state before the
 * ingestion and none of its writes: a read-only connection beside the writer's, so that each
 * slice is written (on SQLite in another thread, on PostgreSQL on another connection) while the
 * next one is looked up and planned. Without `sql` (a dry run) every stage but apply runs.
 */
export class IngestRun {
  private readonly counts = noCounts();
  private readonly context: PlanContext;
  private readonly stored: StoredRows;
  private readonly readAhead: boolean;
  private readonly writer: PlanWriter | null;
  private readonly changes: ChangeLog;
  /** Each id the payload gives, to the id it resolved to (itself, or a stored asset's by ip). */
  private readonly payloadIds = new Map<string, string>();
  /** Relations ending at ips: each item ip, to the id its first item resolved to. */
  private readonly payloadIps = new Map<string, string>();
  /** Every resolved id: the assets the ingestion leaves stored. */
  private readonly keptAssets = new Set<string>();
  /** The stored assets matched so far (merge), and the index of the item that matched each. */
  private readonly matchedBy = new Map<string, number>();
  private readonly storedRelations: StoredRelations = {
    all: [],
    byKey: new Map(),
    keptIds: new Set(),
  };
  private stale: StaleDecision | null = null;
  /** The stored relations' types, directions, protocols and ports: see shared(). */
  private readonly sharedValues = new Map<string, string>();

  /**
   * `sql`: the transaction to write in, or null for a dry run. `lookups`: where the stored
   * rows are read. `now`: the run's time. `history`: whose change records the run writes
   * (none when null). `findingEvents`: what the run's events show of findings (no events when
   * null).
   */
  constructor(
    private readonly payload: IngestPayload,
    private readonly sql: IngestSql | null,
    lookups: IngestLookups,
    now = new Date(),
    history: ChangeOrigin | null = null,
    findingEvents: FindingEvents | null = null,
  ) {
    const { source, match, itemName } = payload;
    this.context = { source, match, itemName, newId: () => timeOrderedId() };
    this.stored = new StoredRows(lookups);
    this.readAhead = lookups.readAhead;
    const changes = sql && history ? new ChangeWriter(sql, history, source, now) : null;
    const events = sql && findingEvents ? new EventWriter(sql, source, now, findingEvents) : null;
    this.writer = sql ? new PlanWriter(sql, source, now, changes, events) : null;
    this.changes = new ChangeLog(source, now.toISOString());
  }

  async execute(): Promise<IngestOutcome> {
    const { mode, deleteStale, maxDeletions } = this.payload;
    if (mode === 'replace') await this.replaceAll();
    const staleToo = mode === 'merge' && deleteStale;
    // The writes wait until every slice is planned when maxDeletions may yet refuse the run.
    const deferWrites = this.writer !== null && staleToo && maxDeletions !== null;
    const deferred: AssetPlan[] | null = deferWrites ? [] : null;
    // Where the lookups are answered beside this thread, a slice is planned once the next one
    // is read and its lookups sent: the database looks them up meanwhile. No slice's stored
    // rows are held while a plan is written: held, they would outlive V8's young generation
    // and raise a repeated ingestion's peak memory.
    let previous: LookedUpSlice | null = null;
    for await (const assets of this.payload.assets) {
      if (!this.readAhead) {
        await this.takePlan(this.planAssets(assets, await this.lookUp(assets)), deferred);
        continue;
      }
      const stored = this.lookUp(assets);
      const plan = previous && this.planAssets(previous.assets, await previous.stored);
      previous = { assets, stored };
      if (plan) await this.takePlan(plan, deferred);
    }
    if (previous)
      await this.takePlan(this.planAssets(previous.assets, await previous.stored), deferred);
    if (staleToo) await this.decideStale();
    for (const plan of deferred?.splice(0) ?? []) await this.writer!.assets(plan);

    // The lookups below cannot see the rows just written: a new asset has no stored relation,
    // and a relation end that is no payload id cannot name one (its id is new or the item's).
    await this.relations(deferWrites);
    this.payloadIds.clear();
    this.payloadIps.clear();
    if (staleToo) await this.deleteStale();
    return { counts: this.counts, changes: this.changes.result() };
  }

  /**
   * replace: every stored asset and relation goes. Counted, and the first of each read for the
   * change list, before anything is deleted; maxDeletions is checked on the count.
   */
  private async replaceAll(): Promise<void> {
    const assets = await this.stored.countAssets();
    checkMaxDeletions(assets, this.payload.maxDeletions);
    const first = await this.stored.firstStored();
    const counts = this.writer
      ? await this.writer.deleteAll()
      : { assetsDeleted: assets, relationsDeleted: await this.stored.countRelations() };
    addCounts(this.counts, counts);
    this.changes.setDeleted(
      first.assets,
      counts.assetsDeleted,
      first.relations,
      counts.relationsDeleted,
    );
  }

  /** A slice's plan: counted, listed, and written (or kept in `deferred`). */
  private async takePlan(plan: AssetPlan, deferred: AssetPlan[] | null): Promise<void> {
    this.changes.addAssets(plan);
    addCounts(this.counts, plan.counts);
    // Refused as soon as the count passes the limit: what was written rolls back with the run.
    checkMaxFixes(this.counts.findingsFixed, this.payload.maxFixes);
    if (deferred) deferred.push(plan);
    else await this.writer?.assets(plan);
  }

  /** merge: the stored rows a slice may match; append: its ids already stored. */
  private lookUp(assets: IngestAsset[]): Promise<StoredAssets | Set<string>> {
    const { mode, source, match } = this.payload;
    const stored =
      mode === 'merge' ? this.stored.forMerge(assets, match, source) : this.takenIds(assets);
    // Awaited once the slice is planned; a failure before then must not go unhandled.
    stored.catch(() => undefined);
    return stored;
  }

  private planAssets(assets: IngestAsset[], stored: StoredAssets | Set<string>): AssetPlan {
    const plan =
      stored instanceof Set
        ? planCreateAll(assets, stored, this.context)
        : planMerge(assets, stored, this.matchedBy, this.context);
    const byIp = this.payload.relationEnds === 'ip';
    assets.forEach((asset, index) => {
      if (asset.id) this.payloadIds.set(asset.id, plan.ids[index]);
      const ip = asset.fields.ip;
      if (byIp && ip && !this.payloadIps.has(ip)) this.payloadIps.set(ip, plan.ids[index]);
      this.keptAssets.add(plan.ids[index]);
    });
    for (const [id, index] of plan.matched) this.matchedBy.set(id, index);
    return plan;
  }

  /**
   * append: the slice's ids that name a stored asset (a clash), also through an id merged into
   * it, which created anew would bring the merged asset back; none in replace.
   */
  private async takenIds(assets: IngestAsset[]): Promise<Set<string>> {
    if (this.payload.mode !== 'append') return new Set();
    const ids = new Set<string>();
    for (const asset of assets) if (asset.id) ids.add(asset.id);
    return new Set((await this.stored.storedAssetsNamed([...ids])).keys());
  }

  /**
   * deleteStale's assets, once every asset is planned and before anything is deleted: which go,
   * which lose the source (with what the change list shows of them), and maxDeletions.
   */
  private async decideStale(): Promise<void> {
    const { source, maxDeletions } = this.payload;
    const candidates = await this.stored.staleCandidates(source, this.keptAssets);
    const assets = planStaleAssets(candidates, this.keptAssets, source);
    checkMaxDeletions(assets.deletes.length, maxDeletions);

    const removals = assets.sourceRemovals;
    const shown = removals.slice(0, CHANGES_PER_LIST);
    const names = await this.stored.names(shown);
    const sources = await this.stored.sources(shown);
    this.changes.addSourceRemovals(
      names.map((entry) => ({ ...entry, sources: sources.get(entry.id)?.names ?? [] })),
      removals.length,
    );
    this.counts.assetsUpdated += removals.length;
    this.counts.assetsDeleted += assets.deletes.length;
    this.stale = {
      assets,
      deleted: new Set(assets.deletes),
      deletedNames: await this.stored.names(assets.deletes.slice(0, CHANGES_PER_LIST + 1)),
      touching: await this.stored.relationsTouching(assets.deletes, this.writer === null),
      createdThenDeleted: { count: 0, first: [] },
    };
  }

  /** deleteStale's writes (a dry run counts what they would delete), and the change list. */
  private async deleteStale(): Promise<void> {
    const stale = this.stale!;
    const unlisted = planStaleRelations(
      this.keptAssets,
      this.storedRelations.all,
      this.storedRelations.keptIds,
    );
    let relationsDeleted: number;
    if (this.writer) {
      const counts = await this.writer.stale(
        stale.assets,
        unlisted.map((row) => row.id),
      );
      relationsDeleted = counts.relationsDeleted;
    } else {
      relationsDeleted = stale.touching.count + stale.createdThenDeleted.count + unlisted.length;
    }
    this.counts.relationsDeleted += relationsDeleted;
    this.changes.setDeleted(
      stale.deletedNames,
      stale.assets.deletes.length,
      firstById([
        ...stale.touching.first,
        ...stale.createdThenDeleted.first,
        ...firstById(unlisted.map(relationChange)),
      ]),
      relationsDeleted,
    );
  }

  /**
   * Reads, looks up and plans the relations slice by slice, and writes each slice's rows once
   * it is planned (unless `deferWrites`: then once every slice is). Stored assets are looked up
   * as a slice first names them, with their stored relations (merge), before any row naming
   * them is written: the lookups never see this run's own relations.
   */
  private async relations(deferWrites: boolean): Promise<void> {
    const { payloadIds, payloadIps } = this;
    const { mode } = this.payload;
    // Ends outside the payload, once looked up: the stored asset each names, if any.
    const storedRefs = new Map<string, string | null>();
    // The stored assets named by such ends whose stored relations were read.
    const namedStored = new Set<string>();
    const seenBefore = new Map<string, number>();
    const deferred: RelationPlan[] = [];
    // Only stored assets have stored relations: those the items matched, and those referred to.
    await this.addStoredRelations([...this.matchedBy.keys()]);

    for await (const relations of this.payload.relations) {
      // Ends that are not payload ids must name stored assets (not in replace: those go).
      if (mode !== 'replace') {
        const refs = this.refsOutsidePayload(relations, storedRefs);
        const found = await this.stored.storedAssetsNamed(refs);
        const toRead: string[] = [];
        for (const ref of refs) {
          const id = found.get(ref) ?? null;
          storedRefs.set(ref, id);
          // Once per asset: an id merged into it and its own may both be ends.
          if (id === null || this.matchedBy.has(id) || namedStored.has(id)) continue;
          namedStored.add(id);
          toRead.push(id);
        }
        await this.addStoredRelations(toRead);
      }
      const storedByKey = this.storedRelations.byKey;
      const plan = planRelations(
        relations,
        mode,
        { payloadIds, payloadIps, storedRefs, storedByKey, seenBefore },
        this.context,
      );
      for (const [key, index] of plan.seen) seenBefore.set(key, index);
      for (const id of plan.kept) this.storedRelations.keptIds.add(id);
      addCounts(this.counts, plan.counts);
      this.changes.addRelations(plan);
      this.noteCreatedThenDeleted(plan.creates);
      if (deferWrites) deferred.push(plan);
      else await this.writer?.relations(plan.creates, plan.updates, plan.updatedFrom);
    }
    for (const plan of deferred.splice(0)) {
      await this.writer!.relations(plan.creates, plan.updates, plan.updatedFrom);
    }
  }

  /** A relation created to an asset deleteStale deletes goes with it (a stored end). */
  private noteCreatedThenDeleted(creates: RelationRow[]): void {
    if (!this.stale || this.stale.deleted.size === 0) return;
    const { deleted, createdThenDeleted } = this.stale;
    const doomed = creates.filter(
      (row) => deleted.has(row.source_asset_id) || deleted.has(row.target_asset_id),
    );
    if (doomed.length === 0) return;
    createdThenDeleted.count += doomed.length;
    createdThenDeleted.first = firstById([
      ...createdThenDeleted.first,
      ...doomed.map(relationChange),
    ]);
  }

  /** merge: the stored relations from `sourceIds`, kept for the plans of the relations. */
  private async addStoredRelations(sourceIds: string[]): Promise<void> {
    if (this.payload.mode !== 'merge') return;
    const { all, byKey } = this.storedRelations;
    // In turns: keying the stored relations of every matched asset at once would hold the
    // event loop long enough to keep health probes waiting.
    const rows = await this.stored.relationsFrom(sourceIds);
    for (let start = 0; start < rows.length; start += PLAN_ITEMS_PER_TURN) {
      if (start > 0) await letOtherRequestsRun();
      for (const row of rows.slice(start, start + PLAN_ITEMS_PER_TURN)) {
        row.type = this.shared(row.type);
        row.direction = this.shared(row.direction);
        row.protocol = row.protocol === null ? null : this.shared(row.protocol);
        row.to_ports = row.to_ports === null ? null : this.shared(row.to_ports);
        all.push(row);
        const key = relationKey(row.source_asset_id, row.target_asset_id, row.type);
        if (!byKey.has(key)) byKey.set(key, row);
      }
    }
  }

  /**
   * `value`, as the first equal string met: the stored relations are held until the run ends,
   * and their few distinct types, directions, protocols and ports are kept once each rather
   * than once a row, as the driver gives them.
   */
  private shared(value: string): string {
    const known = this.sharedValues.get(value);
    if (known !== undefined) return known;
    this.sharedValues.set(value, value);
    return value;
  }

  /** The ends of `relations` that are no payload id and have not been looked up yet. */
  private refsOutsidePayload(
    relations: IngestRelation[],
    known: ReadonlyMap<string, unknown>,
  ): string[] {
    const refs = new Set<string>();
    const visit = (ref: string) => {
      if (!this.payloadIds.has(ref) && !known.has(ref)) refs.add(ref);
    };
    for (const { sourceAssetId, targetAssetId, endsBy } of relations) {
      // Ips name the payload's own assets.
      if (endsBy === 'ip') continue;
      visit(sourceAssetId);
      visit(targetAssetId);
    }
    return [...refs];
  }
}

/** The first entries of a deleted list (and one more), each once, in id order. */
function firstById(entries: RelationChange[]): RelationChange[] {
  const unique = new Map(entries.map((entry) => [entry.id, entry]));
  return [...unique.values()].sort((a, b) => byId(a.id, b.id)).slice(0, CHANGES_PER_LIST + 1);
}
