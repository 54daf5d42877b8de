import type { DueSeverity } from '../../../common/field-rules/finding-values.js';
import type { IngestLookups } from '../../ingest-sql.js';
import { isoTimestamp } from '../../timestamps.js';

/** A finding's opening, as the overdue filter and the index IDX_findings_due read it. */
const OPENING = 'COALESCE(reopened_at, first_seen_at)';

const DAY_MS = 86_400_000;

interface AcceptedRow {
  id: string;
  severity: DueSeverity;
  opened_at: Date | string;
  accepted_until: Date | string;
}

const time = (value: Date | string): number => new Date(isoTimestamp(value)).getTime();

/**
 * The findings that became overdue in a stretch of time. A finding becomes overdue when it
 * counts as open past its due date: at its due date when it is open then (or its acceptance
 * ended before), else when its acceptance ends (an accepted finding counts as open from its
 * acceptedUntil on). Each finding is found by one of the two reads, once.
 */
export class FindingOverdueReads {
  /** `days`: FINDING_SLA_DAYS, each severity's days from its opening to its due date. */
  constructor(
    private readonly db: IngestLookups,
    private readonly days: Readonly<Record<DueSeverity, number>>,
  ) {}

  /**
   * Those of a severity whose due date passed in the stretch: opened in [from, to) (the
   * openings before which that severity's due date has passed, at the last check and now),
   * read through the index on (status, severity, opening); open then, or accepted until no
   * later than their due date.
   */
  async crossed(severity: DueSeverity, from: unknown, to: unknown): Promise<string[]> {
    const open = await this.db.all<{ id: string }>(
      `SELECT id FROM findings WHERE status = 'open' AND severity = ? AND ${OPENING} >= ? AND ${OPENING} < ? ORDER BY ${OPENING}, id`,
      [severity, from, to],
    );
    const accepted = await this.db.all<AcceptedRow>(
      `SELECT id, severity, ${OPENING} AS opened_at, accepted_until FROM findings
       WHERE status = 'accepted' AND severity = ? AND ${OPENING} >= ? AND ${OPENING} < ?
       ORDER BY ${OPENING}, id`,
      [severity, from, to],
    );
    const ended = accepted.filter((row) => time(row.accepted_until) <= this.dueTime(row));
    return [...open, ...ended].map((row) => row.id);
  }

  /**
   * Those whose acceptance ended in [from, to) after their due date had passed, read through
   * the index on accepted_until (few).
   */
  async acceptanceEnded(from: unknown, to: unknown): Promise<string[]> {
    const rows = await this.db.all<AcceptedRow>(
      `SELECT id, severity, ${OPENING} AS opened_at, accepted_until FROM findings
       WHERE status = 'accepted' AND accepted_until >= ? AND accepted_until < ? AND severity <> 'none'
       ORDER BY accepted_until, id`,
      [from, to],
    );
    return rows.filter((row) => this.dueTime(row) < time(row.accepted_until)).map((row) => row.id);
  }

  private dueTime(row: AcceptedRow): number {
    return time(row.opened_at) + this.days[row.severity] * DAY_MS;
  }
}
