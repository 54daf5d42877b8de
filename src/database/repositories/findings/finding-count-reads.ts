import {
  SEVERITIES,
  type DueSeverity,
  type FindingStatus,
  type Severity,
} from '../../../common/field-rules/finding-values.js';

/** A read through the repository's connection, with :named parameters. */
export type CountRead = <T>(sql: string, parameters: Record<string, unknown>) => Promise<T[]>;

/** A count by severity (and stored status, or UTC day `YYYY-MM-DD`, where it says). */
export interface CountRow {
  status?: FindingStatus;
  day?: string;
  kind?: 'opened' | 'closed';
  severity: Severity;
  total: number;
}

const DAY_MS = 86_400_000;
/** The severities that have a due date. */
export const DUE_SEVERITIES = SEVERITIES.filter(
  (severity): severity is DueSeverity => severity !== 'none',
);
/** Its opening, or last reopening, as index IDX_findings_due has it. */
export const OPENED = 'COALESCE(reopened_at, first_seen_at)';

/** `YYYY-MM-DD` of a time's UTC day. */
const dayOf = (time: Date): string => time.toISOString().slice(0, 10);
/** The start of a time's UTC day. */
const dayStart = (time: Date): Date => new Date(Math.floor(time.getTime() / DAY_MS) * DAY_MS);

/**
 * The findings' counts as migration FindingCounts keeps them (`finding_counts`: by kind, stored
 * status, severity and UTC day, a key's count the sum of its rows), for the reads that filter by
 * status and severity at most: a few rows instead of a million findings. What a day's count
 * cannot say (how many of a day come before a time in it) is counted by index, over that day's
 * findings alone.
 */
export class FindingCountReads {
  constructor(private readonly read: CountRead) {}

  /** The findings by stored status and severity. */
  async byStatus(severities?: readonly Severity[]): Promise<CountRow[]> {
    return this.counts(
      `SELECT status, severity, SUM(total) AS total FROM finding_counts WHERE kind = 'status'${this.bySeverity(severities)} GROUP BY status, severity`,
      { severities },
    );
  }

  /**
   * The acceptances past their end at `now`, by severity, with how many of them are overdue
   * (opened before `overdueBefore` of their severity): few, through the accepted_until index.
   * Only an accepted finding has an accepted_until (every write that changes the status clears
   * it), so the status is not asked; and they are added up here rather than grouped, so that
   * the planner has no other index to prefer (one in severity order, for the grouping).
   */
  async expired(
    now: Date,
    overdueBefore: Readonly<Record<DueSeverity, Date>>,
    severities?: readonly Severity[],
  ): Promise<(CountRow & { overdue: number })[]> {
    const overdue = DUE_SEVERITIES.map(
      (severity) => `(severity = '${severity}' AND ${OPENED} < :overdue_${severity})`,
    ).join(' OR ');
    const rows = await this.read<{ severity: Severity; overdue: number | string }>(
      `SELECT severity, CASE WHEN ${overdue} THEN 1 ELSE 0 END AS overdue
      FROM findings WHERE accepted_until <= :now${this.bySeverity(severities)}`,
      {
        now,
        severities,
        ...Object.fromEntries(
          DUE_SEVERITIES.map((severity) => [`overdue_${severity}`, overdueBefore[severity]]),
        ),
      },
    );
    const bySeverity = new Map<Severity, CountRow & { overdue: number }>();
    for (const { severity, overdue: late } of rows) {
      let counts = bySeverity.get(severity);
      if (counts === undefined)
        bySeverity.set(severity, (counts = { severity, total: 0, overdue: 0 }));
      counts.total += 1;
      counts.overdue += Number(late);
    }
    return [...bySeverity.values()];
  }

  /**
   * The findings stored as open and opened (or last reopened) before `overdueBefore` of their
   * severity, by severity: the days before that time's from the counts, that day's own up to
   * it by index IDX_findings_due.
   */
  async overdueOpen(
    overdueBefore: Readonly<Record<DueSeverity, Date>>,
    severities?: readonly Severity[],
  ): Promise<CountRow[]> {
    const due = DUE_SEVERITIES.filter((severity) => severities?.includes(severity) ?? true);
    if (due.length === 0) return [];
    const parameters: Record<string, unknown> = {};
    for (const severity of due) {
      parameters[`day_${severity}`] = dayOf(overdueBefore[severity]);
      parameters[`from_${severity}`] = dayStart(overdueBefore[severity]);
      parameters[`to_${severity}`] = overdueBefore[severity];
    }
    const before = await this.counts(
      `SELECT severity, SUM(total) AS total FROM finding_counts WHERE kind = 'due' AND (${due
        .map((severity) => `(severity = '${severity}' AND day < :day_${severity})`)
        .join(' OR ')}) GROUP BY severity`,
      parameters,
    );
    const sameDay = await this.counts(
      due
        .map(
          (severity) =>
            `SELECT '${severity}' AS severity, COUNT(*) AS total FROM findings WHERE status = 'open' AND severity = '${severity}' AND ${OPENED} >= :from_${severity} AND ${OPENED} < :to_${severity}`,
        )
        .join(' UNION ALL '),
      parameters,
    );
    return [...before, ...sameDay];
  }

  /**
   * The findings first seen at or after `since` (whatever their status now), or with `fixed`,
   * those fixed since then: the days after its own from the counts, its day's by index. Only a
   * fixed finding has a fixed_at (a reopening clears it), as for accepted_until above.
   */
  async since(
    kind: 'seen' | 'fixed',
    since: Date,
    severities?: readonly Severity[],
  ): Promise<number> {
    const [{ total: later }] = await this.counts(
      `SELECT COALESCE(SUM(total), 0) AS total FROM finding_counts WHERE kind = :kind AND day > :day${this.bySeverity(severities)}`,
      { kind, day: dayOf(since), severities },
    );
    // The fixed ones through index IDX_findings_fixed, which leads with the status.
    const [column, only] =
      kind === 'seen' ? ['first_seen_at', ''] : ['fixed_at', "status = 'fixed' AND "];
    const [{ total: sameDay }] = await this.counts(
      `SELECT COUNT(*) AS total FROM findings WHERE ${only}${column} >= :since AND ${column} < :next${this.bySeverity(severities)}`,
      { since, next: new Date(dayStart(since).getTime() + DAY_MS), severities },
    );
    return later + sameDay;
  }

  /**
   * The trend's counts of open periods by severity: those open at the start of `startDay`
   * (opened before it, less those closed before it), then the openings and closings of each day
   * from it on.
   */
  async periods(
    startDay: string,
    severities?: readonly Severity[],
  ): Promise<{ atStart: CountRow[]; days: CountRow[] }> {
    const filter = `kind IN ('opened', 'closed')${this.bySeverity(severities)}`;
    const before = await this.counts(
      `SELECT kind, severity, SUM(total) AS total FROM finding_counts WHERE ${filter} AND day < :startDay GROUP BY kind, severity`,
      { startDay, severities },
    );
    const days = await this.counts(
      `SELECT kind, day, severity, SUM(total) AS total FROM finding_counts WHERE ${filter} AND day >= :startDay GROUP BY kind, day, severity`,
      { startDay, severities },
    );
    const atStart = before.map((row) => ({
      severity: row.severity,
      total: row.kind === 'closed' ? -row.total : row.total,
    }));
    return { atStart, days };
  }

  private bySeverity(severities?: readonly Severity[]): string {
    return severities === undefined ? '' : ' AND severity IN (:...severities)';
  }

  private async counts(sql: string, parameters: Record<string, unknown>): Promise<CountRow[]> {
    const rows = await this.read<CountRow & { total: number | string }>(sql, parameters);
    return rows.map((row) => ({ ...row, total: Number(row.total) }));
  }
}
