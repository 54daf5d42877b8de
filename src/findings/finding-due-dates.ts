import {
  severityOf,
  type DueSeverity,
  type FindingStatus,
} from '../common/field-rules/finding-values.js';

const DAY_MS = 86_400_000;

/**
 * Due dates from FINDING_SLA_DAYS: `(reopenedAt, else firstSeenAt) + N days` for the finding's
 * severity; none for severity `none`.
 */
export class FindingDueDates {
  constructor(readonly days: Readonly<Record<DueSeverity, number>>) {}

  /** The due date of a finding of `score` opened (or last reopened) at `openedAt`; null: none. */
  dueAt(score: number | null, openedAt: Date): Date | null {
    const severity = severityOf(score);
    if (severity === 'none') return null;
    return new Date(openedAt.getTime() + this.days[severity] * DAY_MS);
  }

  /**
   * For each severity with a due date, the opening before which a finding is overdue at `now`:
   * what the list's `overdue` filter compares openings with.
   */
  overdueBefore(now: Date): Record<DueSeverity, Date> {
    const before = {} as Record<DueSeverity, Date>;
    for (const [severity, days] of Object.entries(this.days) as [DueSeverity, number][]) {
      before[severity] = new Date(now.getTime() - days * DAY_MS);
    }
    return before;
  }
}

/**
 * The status a finding reads as at `now`: an acceptance whose acceptedUntil has passed reads,
 * counts and behaves as open.
 */
export function effectiveStatus(
  status: FindingStatus,
  acceptedUntil: Date | null,
  now: Date,
): FindingStatus {
  return status === 'accepted' && acceptedUntil !== null && acceptedUntil <= now ? 'open' : status;
}
