import type { CreatedObjectType } from '../../database/history/creation-sql.js';
import type { ChangeWriter } from './change-writer.js';
import type { EventWriter } from './event-writer.js';
import { chunks, idsPerStatement, type IngestSql } from '../../database/ingest-sql.js';
import { AssetIngestWrites } from '../../database/repositories/assets/asset-ingest-writes.js';
import { FindingWrites } from '../../database/repositories/findings/finding-writes.js';
import { RelationIngestWrites } from '../../database/repositories/relations/relation-ingest-writes.js';
import type { IngestCounts, RelationRow } from '../plan/ingest-plan.js';
import { type AssetPlan } from '../plan/plan-assets.js';
import { LIST_COLUMNS } from '../../database/tables/assets.table.js';
import type { StaleAssetPlan } from '../plan/plan-stale.js';

/**
 * The apply stage: writes plans in the caller's transaction, with multi-row statements (see
 * IngestSql.insert), through the same statements on either database
 * (src/database/repositories/: assets/asset-ingest-writes.ts, relations/relation-ingest-writes.ts).
 */
export class PlanWriter {
  private readonly assetWrites: AssetIngestWrites;
  private readonly relationWrites: RelationIngestWrites;
  private readonly findingWrites: FindingWrites;
  private readonly perStatement: number;

  /**
   * `now`: the run's time, written as created_at, updated_at and, with `source` (the payload's),
   * as the sightings.
   */
  constructor(
    sql: IngestSql,
    private readonly source: string | null,
    now: Date,
    /** Where the change records go; null when history is off. */
    private readonly changes: ChangeWriter | null = null,
    /** Where the events go (the outbox). */
    private readonly events: EventWriter | null = null,
  ) {
    this.assetWrites = new AssetIngestWrites(sql, source, now);
    this.relationWrites = new RelationIngestWrites(sql, now);
    this.findingWrites = new FindingWrites(sql, source, now);
    this.perStatement = idsPerStatement(sql);
  }

  /** replace: the store emptied first. */
  async deleteAll(): Promise<Pick<IngestCounts, 'assetsDeleted' | 'relationsDeleted'>> {
    await this.changes?.deletingAll();
    await this.events?.deletingAll();
    const relationsDeleted = await this.relationWrites.deleteAll();
    await this.findingWrites.deleteAll();
    return { assetsDeleted: await this.assetWrites.deleteAll(), relationsDeleted };
  }

  async assets(plan: AssetPlan): Promise<void> {
    const writes = this.assetWrites;
    await this.keepCreations(
      'asset',
      plan.updates.map((update) => update.after.id),
    );
    await writes.insert(plan.creates);
    await writes.upsert(plan.updates);
    const relisted = plan.updates.filter(({ before, after }) =>
      LIST_COLUMNS.some((column) => before[column] !== after[column]),
    );
    await writes.replaceIdentifiers(
      [...plan.creates, ...relisted.map((update) => update.after)],
      relisted.map((update) => update.after.id),
    );
    if (this.source !== null) {
      // One bulk statement per idsPerStatement assets: the repeated run's main write.
      await writes.seen(plan.unchanged);
      await writes.sourceOfCreated(plan.creates);
      await writes.sourceAdded(plan.sourceAdds);
    }
    await this.keepFindingCreations(plan);
    await this.findingWrites.apply(plan.findingPlans);
    await this.findingWrites.seenAsListed(plan.findingsSeenAsListed);
    await writes.replaceServices(plan.replacedServiceLists, plan.serviceLists);
    await this.changes?.assets(plan);
    await this.events?.assets(plan);
  }

  /**
   * Before the findings whose rows change (values, status, sources: all but a sighting) are
   * written: their creation records get the copy they lack.
   */
  private async keepFindingCreations(plan: AssetPlan): Promise<void> {
    if (!this.changes) return;
    const ids: string[] = [];
    for (const findings of plan.findingPlans.values()) {
      for (const change of findings.changes) ids.push(change.stored.id);
      for (const [id] of findings.sourceAdds) ids.push(id);
      for (const id of findings.sourceRemovals) ids.push(id);
    }
    await this.keepCreations('finding', [...new Set(ids)]);
  }

  /** Before `ids` are updated: their creation records get the copy they lack (ChangeWriter). */
  private async keepCreations(objectType: CreatedObjectType, ids: string[]): Promise<void> {
    if (!this.changes) return;
    for (const part of chunks(ids, this.perStatement))
      await this.changes.updating(objectType, part);
  }

  /** `updatedFrom`: the stored row of each of `updates`, at the same index. */
  async relations(
    creates: RelationRow[],
    updates: RelationRow[],
    updatedFrom: RelationRow[],
  ): Promise<void> {
    await this.keepCreations(
      'relation',
      updates.map((relation) => relation.id),
    );
    await this.relationWrites.insert(creates);
    await this.relationWrites.upsert(updates);
    await this.changes?.relations(creates, updates, updatedFrom);
  }

  /**
   * deleteStale; answers what it deleted, the stale assets' relations included. `relations`:
   * the stored relations among the payload's assets that it does not list.
   */
  async stale(
    plan: StaleAssetPlan,
    relations: string[],
  ): Promise<Pick<IngestCounts, 'assetsDeleted' | 'relationsDeleted'>> {
    const counts = { assetsDeleted: 0, relationsDeleted: 0 };
    for (const part of chunks(plan.sourceRemovals, this.perStatement)) {
      await this.changes?.losingSource(part);
      await this.assetWrites.loseSource(part);
    }
    for (const part of chunks(plan.deletes, this.perStatement)) {
      // The assets' relations are deleted (and counted) here rather than by the cascade. The
      // assets are locked first, so that no relation to them is created in between by another
      // transaction (and then deleted by the cascade, uncounted).
      await this.assetWrites.lock(part);
      await this.changes?.deletingAssets(part);
      await this.events?.deletingAssets(part);
      counts.relationsDeleted += await this.relationWrites.deleteTouching(part);
      counts.assetsDeleted += await this.assetWrites.delete(part);
    }
    for (const part of chunks(relations, this.perStatement)) {
      await this.changes?.deletingRelations(part);
      counts.relationsDeleted += await this.relationWrites.delete(part);
    }
    return counts;
  }
}
