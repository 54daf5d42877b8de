import type { IngestLookups } from '../database/ingest-sql.js';
import type { OutboxEvent } from '../database/outbox/outbox-event.js';
import type { EventType } from '../database/outbox/event-types.js';
import { AssetStoredRows } from '../database/repositories/assets/asset-stored-rows.js';
import { FindingEventReads } from '../database/repositories/findings/finding-event-reads.js';
import { toFindingResponse } from './dto/finding-response.dto.js';
import type { FindingDueDates } from './finding-due-dates.js';
import type { FindingListPlan } from './plan/plan-findings.js';

export type FindingEventType = Extract<EventType, `finding.${string}`>;

/** A finding that an event is sent about, and which event. */
export type FindingEventEntry = [findingId: string, type: FindingEventType];

/** The events of a plan's findings: the new ones opened, others reopened or fixed. */
export function* findingPlanEvents(plan: FindingListPlan): Generator<FindingEventEntry> {
  for (const { id } of plan.creates) yield [id, 'finding.opened'];
  for (const { stored, status } of plan.changes) {
    if (status === 'open') yield [stored.id, 'finding.reopened'];
    else if (status === 'fixed') yield [stored.id, 'finding.fixed'];
  }
}

/**
 * Finding events as their messages show them: the finding as the API does, with its asset's
 * `{id, name, ip, site}`; filtered by the asset's sources and site and the finding's score.
 */
export class FindingEvents {
  constructor(private readonly due: FindingDueDates) {}

  /** The events of `entries`, in their order, read through `db` (the write's transaction). */
  async read(
    db: IngestLookups,
    entries: readonly FindingEventEntry[],
    now: Date,
  ): Promise<OutboxEvent[]> {
    if (entries.length === 0) return [];
    const ids = entries.map(([id]) => id);
    const reads = new FindingEventReads(db);
    const rows = new Map((await reads.rows(ids)).map((row) => [row.id, row]));
    const sources = await reads.sources(ids);
    const assetIds = [...new Set([...rows.values()].map((row) => row.asset_id))];
    const assetRows = new AssetStoredRows(db);
    const assets = new Map((await assetRows.rows(assetIds)).map((row) => [row.id, row]));
    const assetSources = new Map<string, string[]>();
    const positioned = await assetRows.unorderedSources(assetIds);
    for (const row of positioned.sort((a, b) => a.position - b.position)) {
      const list = assetSources.get(row.asset_id);
      if (list) list.push(row.source);
      else assetSources.set(row.asset_id, [row.source]);
    }
    const events: OutboxEvent[] = [];
    for (const [id, type] of entries) {
      const row = rows.get(id);
      const asset = row && assets.get(row.asset_id);
      if (!row || !asset) continue;
      const finding = toFindingResponse(row, sources.get(id) ?? [], this.due, now);
      events.push({
        type,
        data: {
          ...finding,
          asset: { id: asset.id, name: asset.name, ip: asset.ip, site: asset.site },
        },
        sources: assetSources.get(asset.id) ?? [],
        site: asset.site,
        score: row.score,
      });
    }
    return events;
  }
}
