import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { timeOrderedId } from '../common/ids/time-ordered-id.js';
import type { VulnerabilityValues } from '../common/field-rules/vulnerability-list.js';
import { FindingStoredRows } from '../database/repositories/findings/finding-stored-rows.js';
import { FindingWrites } from '../database/repositories/findings/finding-writes.js';
import { FindingsRepository } from '../database/repositories/findings.repository.js';
import type { WriteUnit } from '../database/writer/write-unit.js';
import { toFindingRecord } from './dto/finding-response.dto.js';
import { FindingDueDates } from './finding-due-dates.js';
import { FindingEvents, findingPlanEvents, type FindingEventEntry } from './finding-events.js';
import { findingStatusChanges } from './plan/finding-status-changes.js';
import { planFindings } from './plan/plan-findings.js';

/** An entry of `vulnerabilities` as a route takes it: its optional values may be left out. */
export type VulnerabilityEntry = Pick<VulnerabilityValues, 'id'> &
  Partial<Omit<VulnerabilityValues, 'id'>>;

/**
 * A route's write of an asset's `vulnerabilities` (POST and PUT /api/assets): the asset's
 * findings planned as an ingestion without a source plans them (plan-findings.ts), written
 * with the ingestion's statements in the route's unit, and recorded there.
 */
@Injectable()
export class FindingListWriter {
  private readonly events: FindingEvents;

  constructor(
    private readonly findings: FindingsRepository,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.events = new FindingEvents(new FindingDueDates(config.findingSlaDays));
  }

  /** In `unit`, at `now`: the asset's findings after a write that lists `listed`. */
  async write(
    unit: WriteUnit,
    assetId: string,
    given: readonly VulnerabilityEntry[],
    now: Date,
  ): Promise<void> {
    const { sql } = unit;
    // Absent values read as null, as ingestion reads them.
    const listed = given.map(({ id, score, summary, publishedDate }): VulnerabilityValues => ({
      id,
      score: score ?? null,
      summary: summary ?? null,
      publishedDate: publishedDate ?? null,
    }));
    const stored = (await new FindingStoredRows(sql).ofAssets([assetId])).get(assetId) ?? [];
    const plan = planFindings(stored, listed, null, () => timeOrderedId());
    // Their creation records, kept without a copy by an ingestion, get it before they change.
    await unit.changing(
      'finding',
      plan.changes.map((change) => change.stored.id),
    );
    await new FindingWrites(sql, null, now).apply(new Map([[assetId, plan]]));
    await sql.settle();
    const entries: FindingEventEntry[] = [];
    for (const entry of findingPlanEvents(plan)) {
      if (await unit.subscribed(entry[1])) entries.push(entry);
    }
    unit.emit(...(await this.events.read(sql, entries, now)));
    if (!unit.recording) return;
    const created = await this.findings.byIds(
      plan.creates.map((entry) => entry.id),
      unit.manager,
    );
    unit.record(
      ...created.rows.map((row) => ({
        action: 'create' as const,
        objectType: 'finding' as const,
        objectId: row.id,
        before: null,
        after: toFindingRecord(row, created.sources.get(row.id) ?? []),
      })),
      ...findingStatusChanges(plan, now.toISOString()),
    );
  }
}
