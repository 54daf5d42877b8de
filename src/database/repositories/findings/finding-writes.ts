import { severityOf } from '../../../common/field-rules/finding-values.js';
import type { VulnerabilityValues } from '../../../common/field-rules/vulnerability-list.js';
import { chunks, idsPerStatement, placeholders, type IngestSql } from '../../ingest-sql.js';
import { FINDING_PERIOD_INSERT_COLUMNS } from '../../tables/finding-periods.table.js';
import { FINDING_SOURCE_INSERT_COLUMNS } from '../../tables/finding-sources.table.js';
import { FINDING_INSERT_COLUMNS } from '../../tables/findings.table.js';
import { standingFindings } from './finding-selects.js';

/** What the finding planner decided for one asset (its FindingListPlan), as written here. */
export interface FindingWritePlan {
  creates: readonly { id: string; values: VulnerabilityValues }[];
  changes: readonly {
    stored: { id: string };
    values: VulnerabilityValues | null;
    status: 'fixed' | 'open' | null;
  }[];
  seen: readonly string[];
  sourceAdds: readonly (readonly [findingId: string, position: number])[];
  sourceRemovals: readonly string[];
}

/** The finding plans of some assets, by asset id. */
export type FindingPlans = ReadonlyMap<string, FindingWritePlan>;

/**
 * The writes of findings that a write listing assets' vulnerabilities makes (an ingestion's
 * apply stage, or a route's unit through Dialect.unitSql): new findings with their sources and
 * first period, sightings, changed values, reopenings, fixes and the feed's own `sources`.
 * Lists of ids are bound `IN (...)`, idsPerStatement to a statement.
 */
export class FindingWrites {
  private readonly now: unknown;
  private readonly perStatement: number;

  /** `now`: the write's time; `source`: its feed, or null. */
  constructor(
    private readonly sql: IngestSql,
    private readonly source: string | null,
    now: Date,
  ) {
    this.now = sql.timestamp(now);
    this.perStatement = idsPerStatement(sql);
  }

  /** replace: every finding deleted (their sources and periods first). */
  async deleteAll(): Promise<void> {
    await this.sql.run('DELETE FROM finding_periods');
    await this.sql.run('DELETE FROM finding_sources');
    await this.sql.run('DELETE FROM findings');
  }

  /** Writes `plans`, in the order a foreign key needs (findings before their sources and periods). */
  async apply(plans: FindingPlans): Promise<void> {
    const { now, source } = this;
    await this.sql.insert('findings', FINDING_INSERT_COLUMNS, this.createdRows(plans));
    const created = this.createdIds(plans);
    const reopened: string[] = [];
    const fixed: string[] = [];
    const seen: string[] = [];
    const sourceAdds: (readonly [string, number])[] = [];
    const sourceRemovals: string[] = [];
    for (const plan of plans.values()) {
      for (const id of plan.seen) seen.push(id);
      for (const entry of plan.sourceAdds) sourceAdds.push(entry);
      for (const id of plan.sourceRemovals) sourceRemovals.push(id);
      for (const change of plan.changes) {
        if (change.status === 'open') reopened.push(change.stored.id);
        else if (change.status === 'fixed') fixed.push(change.stored.id);
        if (change.values !== null) {
          const { score, summary, publishedDate } = change.values;
          await this.sql.runQueued(
            'UPDATE findings SET score = ?, severity = ?, summary = ?, published_date = ? WHERE id = ?',
            [score, severityOf(score), summary, publishedDate, change.stored.id],
          );
        }
      }
    }
    await this.byIds(seen, 'UPDATE findings SET last_seen_at = ? WHERE id IN', [now]);
    await this.byIds(
      reopened,
      "UPDATE findings SET status = 'open', fixed_at = NULL, reopened_at = ?, reopen_count = reopen_count + 1 WHERE id IN",
      [now],
    );
    await this.byIds(
      fixed,
      "UPDATE findings SET status = 'fixed', fixed_at = ?, accepted_until = NULL WHERE id IN",
      [now],
    );
    // Found by their findings' ids: read first through the index of closed_at, the open periods
    // are every open finding's.
    await this.byIds(
      fixed,
      `UPDATE finding_periods SET closed_at = ? WHERE ${this.sql.dialect.unindexed('closed_at')} IS NULL AND finding_id IN`,
      [now],
    );
    await this.sql.insert(
      'finding_periods',
      FINDING_PERIOD_INSERT_COLUMNS,
      this.createdPeriods(plans),
    );
    // A reopened finding's period counts under its severity as stored by now.
    await this.byIds(
      reopened,
      'INSERT INTO finding_periods (finding_id, opened_at, severity) SELECT id, ?, severity FROM findings WHERE id IN',
      [now],
    );
    if (source === null) return;
    await this.byIds(
      sourceRemovals,
      'DELETE FROM finding_sources WHERE source = ? AND finding_id IN',
      [source],
    );
    await this.sql.insert(
      'finding_sources',
      FINDING_SOURCE_INSERT_COLUMNS,
      [...created.map((id): [string, number] => [id, 0]), ...sourceAdds].map(([id, position]) => [
        id,
        source,
        position,
      ]),
    );
  }

  private *createdRows(plans: FindingPlans): Generator<unknown[]> {
    const { now } = this;
    for (const [assetId, plan] of plans) {
      for (const { id, values } of plan.creates) {
        yield [
          id,
          assetId,
          values.id,
          values.score,
          severityOf(values.score),
          values.summary,
          values.publishedDate,
          'open',
          now,
          now,
          null,
          null,
          0,
        ];
      }
    }
  }

  /** The first open period of each new finding. */
  private *createdPeriods(plans: FindingPlans): Generator<unknown[]> {
    for (const plan of plans.values())
      for (const { id, values } of plan.creates) yield [id, this.now, severityOf(values.score)];
  }

  private createdIds(plans: FindingPlans): string[] {
    const ids: string[] = [];
    for (const plan of plans.values()) for (const { id } of plan.creates) ids.push(id);
    return ids;
  }

  /**
   * The sightings of assets whose write lists their findings as they are
   * (FindingStoredRows.asListed): their standing findings (standingFindings), which are the
   * listed ones.
   */
  async seenAsListed(assetIds: readonly string[]): Promise<void> {
    const { condition, params } = standingFindings(this.source, 'findings.id');
    for (const part of chunks(assetIds, this.perStatement)) {
      await this.sql.runQueued(
        `UPDATE findings SET last_seen_at = ? WHERE asset_id IN (${placeholders(part)}) AND ${condition}`,
        [this.now, ...part, ...params],
      );
    }
  }

  /** `statement` (ending `IN`) run on `ids`, idsPerStatement at a time, after `params`. */
  private async byIds(ids: readonly string[], statement: string, params: unknown[]): Promise<void> {
    for (const part of chunks(ids, this.perStatement)) {
      await this.sql.runQueued(`${statement} (${placeholders(part)})`, [...params, ...part]);
    }
  }
}
