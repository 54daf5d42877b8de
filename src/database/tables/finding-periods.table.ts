import type { FindingPeriod } from '../entities/finding-period.entity.js';
import type { InsertColumn } from '../ingest-sql.js';
import { text, timestamp } from './column-table.js';

/** The finding_periods table (the spans a finding was open or accepted, for the trend). */
export const FINDING_PERIOD_COLUMNS = {
  findingId: text('finding_id'),
  openedAt: timestamp('opened_at'),
  closedAt: timestamp('closed_at'),
  severity: text('severity'),
} as const satisfies { [P in Exclude<keyof FindingPeriod, 'finding'>]-?: InsertColumn };

/**
 * What an opening writes: the finding, the time (still open: closed_at NULL) and the finding's
 * severity.
 */
export const FINDING_PERIOD_INSERT_COLUMNS: InsertColumn[] = [
  FINDING_PERIOD_COLUMNS.findingId,
  FINDING_PERIOD_COLUMNS.openedAt,
  FINDING_PERIOD_COLUMNS.severity,
];
