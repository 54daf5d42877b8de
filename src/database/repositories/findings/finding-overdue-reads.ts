import type { DueSeverity } from '../../../common/field-rules/finding-values.js';
import type { IngestLookups } from '../../ingest-sql.js';

/** A finding's opening, as the overdue filter and the index IDX_findings_due read it. */
const OPENING = 'COALESCE(reopened_at, first_seen_at)';

/**
 * The findings that became overdue in a stretch of time, read through the index on (status,
 * severity, opening): the open ones of a severity opened in [from, to) (the openings before
 * which that severity's due date has passed, at the last check and now).
 */
export class FindingOverdueReads {
  constructor(private readonly db: IngestLookups) {}

  async crossed(severity: DueSeverity, from: unknown, to: unknown): Promise<string[]> {
    const rows = await this.db.all<{ id: string }>(
      `SELECT id FROM findings WHERE status = 'open' AND severity = ? AND ${OPENING} >= ? AND ${OPENING} < ? ORDER BY ${OPENING}, id`,
      [severity, from, to],
    );
    return rows.map((row) => row.id);
  }
}
