import { v7 as timeOrderedUuid } from 'uuid';
import { PlanWriter } from './apply/plan-writer.js';
import type { IngestAsset, IngestPayload, IngestRelation } from './ingest-payload.js';
import type { IngestLookups, IngestSql } from './ingest-sql.js';
import { PLAN_ITEMS_PER_TURN } from './ingest-tuning.js';
import { StoredRows } from './match/stored-rows.js';
import {
  addCounts,
  noCounts,
  type IngestCounts,
  type PlanContext,
  type RelationRow,
} from './plan/ingest-plan.js';
import { planCreateAll, planMerge, type AssetPlan } from './plan/plan-assets.js';
import { planRelations, relationKey } from './plan/plan-relations.js';
import { planStale } from './plan/plan-stale.js';

export type { IngestCounts } from './plan/ingest-plan.js';

/** The stored relations of the assets matched or named (merge), for the plans. */
interface StoredRelations {
  all: RelationRow[];
  byKey: Map<string, RelationRow>;
  /** Ids of those the payload lists. */
  keptIds: Set<string>;
}

/**
 * One ingestion, inside the transaction its caller opened: the assets, then the relations,
 * slice by slice through match (match/), plan (plan/) and apply (apply/); deleteStale last.
 * Any failure rolls it all back. Lookups go to `lookups`, which must show the state before
 * the ingestion: on SQLite a read-only connection beside the writer's (the writes then run in
 * another thread while the next slice is planned); else the transaction's own connection, and
 * the writes wait until every slice (of the assets, then of the relations) is planned.
 */
export class IngestRun {
  private readonly counts = noCounts();
  private readonly context: PlanContext;
  private readonly stored: StoredRows;
  private readonly writer: PlanWriter;
  /** Each id the payload gives, to the id it resolved to (itself, or a stored asset's by ip). */
  private readonly payloadIds = new Map<string, string>();
  /** Every resolved id: the assets the ingestion leaves stored. */
  private readonly keptAssets = new Set<string>();
  /** The stored assets matched so far (merge), and the index of the item that matched each. */
  private readonly matchedBy = new Map<string, number>();
  private readonly storedRelations: StoredRelations = {
    all: [],
    byKey: new Map(),
    keptIds: new Set(),
  };

  constructor(
    private readonly sql: IngestSql,
    private readonly payload: IngestPayload,
    private readonly lookups: IngestLookups = sql,
  ) {
    this.context = { source: payload.source, newId: () => timeOrderedUuid() };
    this.stored = new StoredRows(lookups);
    this.writer = new PlanWriter(sql);
  }

  async execute(): Promise<IngestCounts> {
    const { mode } = this.payload;
    if (mode === 'replace') addCounts(this.counts, await this.writer.deleteAll());
    // Each slice is planned against the state before the ingestion: when the lookups would see
    // this run's own writes (one connection), the writes wait until every slice is planned.
    const deferWrites = this.lookups === this.sql;
    const deferred: AssetPlan[] = [];
    for await (const assets of this.payload.assets) {
      const plan = await this.planAssets(assets);
      if (deferWrites) deferred.push(plan);
      else await this.writeAssets(plan);
    }
    for (const plan of deferred.splice(0)) await this.writeAssets(plan);

    // The lookups below cannot see the rows just written: a new asset has no stored relation,
    // and a relation end that is no payload id cannot name one (its id is new or the item's).
    await this.relations(deferWrites);
    this.payloadIds.clear();
    if (mode === 'merge' && this.payload.deleteStale) {
      const stale = planStale(
        await new StoredRows(this.sql).staleCandidates(this.payload.source),
        this.keptAssets,
        this.storedRelations.all,
        this.storedRelations.keptIds,
      );
      addCounts(this.counts, await this.writer.stale(stale));
    }
    return this.counts;
  }

  private async planAssets(assets: IngestAsset[]): Promise<AssetPlan> {
    const plan =
      this.payload.mode === 'merge'
        ? planMerge(assets, await this.stored.forMerge(assets), this.matchedBy, this.context)
        : planCreateAll(assets, await this.takenIds(assets), this.context);
    assets.forEach((asset, index) => {
      if (asset.id) this.payloadIds.set(asset.id, plan.ids[index]);
      this.keptAssets.add(plan.ids[index]);
    });
    for (const [id, index] of plan.matched) this.matchedBy.set(id, index);
    return plan;
  }

  /** append: the slice's ids already stored (a clash); none in replace. */
  private async takenIds(assets: IngestAsset[]): Promise<Set<string>> {
    if (this.payload.mode !== 'append') return new Set();
    const ids = new Set<string>();
    for (const asset of assets) if (asset.id) ids.add(asset.id);
    return this.stored.existingIds([...ids]);
  }

  private async writeAssets(plan: AssetPlan): Promise<void> {
    await this.writer.assets(plan);
    addCounts(this.counts, plan.counts);
  }

  /**
   * Reads, looks up and plans the relations slice by slice, and writes each slice's rows once
   * it is planned (unless `deferWrites`: then once every slice is). Stored assets are looked up
   * as a slice first names them, with their stored relations (merge), before any row naming
   * them is written: the lookups never see this run's own relations.
   */
  private async relations(deferWrites: boolean): Promise<void> {
    const { payloadIds } = this;
    const { mode } = this.payload;
    // Ends outside the payload, once looked up: whether they name a stored asset.
    const storedRefs = new Map<string, boolean>();
    const seenBefore = new Map<string, number>();
    const deferred: RelationRow[][][] = [];
    // Only stored assets have stored relations: those the items matched, and those referred to.
    await this.addStoredRelations([...this.matchedBy.keys()]);

    for await (const relations of this.payload.relations) {
      // Ends that are not payload ids must name stored assets (not in replace: those go).
      if (mode !== 'replace') {
        const refs = this.refsOutsidePayload(relations, storedRefs);
        const found = await this.stored.existingIds(refs);
        for (const ref of refs) storedRefs.set(ref, found.has(ref));
        await this.addStoredRelations([...found].filter((id) => !this.matchedBy.has(id)));
      }
      const storedByKey = this.storedRelations.byKey;
      const plan = planRelations(
        relations,
        mode,
        { payloadIds, storedRefs, storedByKey, seenBefore },
        this.context,
      );
      for (const [key, index] of plan.seen) seenBefore.set(key, index);
      for (const id of plan.kept) this.storedRelations.keptIds.add(id);
      addCounts(this.counts, plan.counts);
      if (deferWrites) deferred.push([plan.creates, plan.updates]);
      else await this.writer.relations(plan.creates, plan.updates);
    }
    for (const [creates, updates] of deferred.splice(0)) {
      await this.writer.relations(creates, updates);
    }
  }

  /** merge: the stored relations from `sourceIds`, kept for the plans of the relations. */
  private async addStoredRelations(sourceIds: string[]): Promise<void> {
    if (this.payload.mode !== 'merge') return;
    const { all, byKey } = this.storedRelations;
    // In turns: keying the stored relations of 100,000 matched assets at once held the event
    // loop for over 100 ms (health probes waited).
    const rows = await this.stored.relationsFrom(sourceIds);
    for (let start = 0; start < rows.length; start += PLAN_ITEMS_PER_TURN) {
      if (start > 0) await this.sql.letOtherRequestsRun();
      for (const row of rows.slice(start, start + PLAN_ITEMS_PER_TURN)) {
        all.push(row);
        const key = relationKey(row.source_asset_id, row.target_asset_id, row.type);
        if (!byKey.has(key)) byKey.set(key, row);
      }
    }
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
}
