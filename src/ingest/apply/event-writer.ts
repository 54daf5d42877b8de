import { chunks, idsPerStatement, type IngestSql } from '../../database/ingest-sql.js';
import type { EventType } from '../../database/outbox/event-types.js';
import {
  subscribedTo,
  type OutboxEvent,
  type Subscription,
} from '../../database/outbox/outbox-event.js';
import { AssetStoredRows } from '../../database/repositories/assets/asset-stored-rows.js';
import { OutboxWrites } from '../../database/repositories/outbox/outbox-writes.js';
import {
  findingPlanEvents,
  type FindingEventEntry,
  type FindingEvents,
} from '../../findings/finding-events.js';
import type { AssetPlan } from '../plan/plan-assets.js';
import { createdAssets, shownAssets } from './shown-assets.js';

/**
 * An ingestion's events, written to the outbox in its transaction as its slices are: its
 * assets created and deleted, its findings opened, reopened and fixed. The enabled webhooks are
 * read once, at the first slice; nothing is built for events no webhook subscribes to, so a run
 * without webhooks pays that one read.
 */
export class EventWriter {
  private readonly outbox: OutboxWrites;
  private readonly assetRows: AssetStoredRows;
  private subscriptions: Promise<Subscription[]> | null = null;
  private readonly createdAsset: ReturnType<typeof createdAssets>;

  constructor(
    private readonly sql: IngestSql,
    private readonly source: string | null,
    private readonly now: Date,
    private readonly findings: FindingEvents,
  ) {
    this.outbox = new OutboxWrites(sql);
    this.assetRows = new AssetStoredRows(sql);
    this.createdAsset = createdAssets(source, now);
  }

  /** A slice's created assets, then its findings' events (once the slice is written). */
  async assets(plan: AssetPlan): Promise<void> {
    const { source, now, createdAsset } = this;
    if (await this.subscribed('asset.created')) {
      const created = function* (): Generator<OutboxEvent> {
        for (const row of plan.creates) {
          yield {
            type: 'asset.created',
            data: createdAsset(row, plan),
            sources: source === null ? [] : [source],
            site: row.site,
            score: null,
          };
        }
      };
      await this.write(created());
    }
    const entries: FindingEventEntry[] = [];
    for (const findings of plan.findingPlans.values()) {
      // Most assets of a repeated scan: no finding opened, reopened or fixed.
      if (findings.creates.length === 0 && findings.changes.length === 0) continue;
      for (const entry of findingPlanEvents(findings)) {
        if (await this.subscribed(entry[1])) entries.push(entry);
      }
    }
    for (const part of chunks(entries, idsPerStatement(this.sql))) {
      await this.write(await this.findings.read(this.sql, part, now));
    }
  }

  /** Assets about to be deleted: as they are, before. */
  async deletingAssets(ids: readonly string[]): Promise<void> {
    if (ids.length === 0 || !(await this.subscribed('asset.deleted'))) return;
    const events = (await shownAssets(this.assetRows, ids)).map((asset): OutboxEvent => ({
      type: 'asset.deleted',
      data: asset,
      sources: asset.sources,
      site: asset.site ?? null,
      score: null,
    }));
    await this.write(events);
  }

  /** replace: every stored asset, before the store is emptied. */
  async deletingAll(): Promise<void> {
    if (!(await this.subscribed('asset.deleted'))) return;
    const ids = (await this.assetRows.allIds()).map((row) => row.id);
    for (const part of chunks(ids, idsPerStatement(this.sql))) await this.deletingAssets(part);
  }

  private async subscribed(type: EventType): Promise<boolean> {
    this.subscriptions ??= this.outbox.subscriptions();
    return subscribedTo(await this.subscriptions, type);
  }

  private async write(events: Iterable<OutboxEvent>): Promise<void> {
    await this.outbox.write(await this.subscriptions!, events, this.now);
  }
}
