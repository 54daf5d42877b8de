/**
 * What the `finding_counts` rows count (migration FindingCounts), for each database's triggers:
 * each fact of a row that holds adds 1 under (kind, status, its severity, day). Part of that
 * migration's schema: a change of what is counted is a new migration.
 */
export interface CountedFact {
  kind: 'status' | 'seen' | 'fixed' | 'due' | 'opened' | 'closed';
  /** The status it counts under, an SQL expression over `row` (`''` for none). */
  status(row: string): string;
  /** The timestamp whose UTC day it counts under, an SQL expression over `row`; null for none. */
  day(row: string): string | null;
  /** When the row counts, an SQL condition over `row`. */
  when(row: string): string;
}

/** Of each finding: its status; its first sighting; its fix; an open one's opening (the due date's). */
export const FINDING_FACTS: readonly CountedFact[] = [
  { kind: 'status', status: (row) => `${row}."status"`, day: () => null, when: () => 'true' },
  { kind: 'seen', status: () => "''", day: (row) => `${row}."first_seen_at"`, when: () => 'true' },
  {
    kind: 'fixed',
    status: () => "''",
    day: (row) => `${row}."fixed_at"`,
    when: (row) => `${row}."status" = 'fixed' AND ${row}."fixed_at" IS NOT NULL`,
  },
  {
    kind: 'due',
    status: () => "''",
    day: (row) => `COALESCE(${row}."reopened_at", ${row}."first_seen_at")`,
    when: (row) => `${row}."status" = 'open'`,
  },
];

/** Of each open period (the trend's): its opening; its closing. */
export const PERIOD_FACTS: readonly CountedFact[] = [
  { kind: 'opened', status: () => "''", day: (row) => `${row}."opened_at"`, when: () => 'true' },
  {
    kind: 'closed',
    status: () => "''",
    day: (row) => `${row}."closed_at"`,
    when: (row) => `${row}."closed_at" IS NOT NULL`,
  },
];

/** The columns whose change can change a finding's facts, and a period's. */
export const FINDING_FACT_COLUMNS = [
  'status',
  'severity',
  'first_seen_at',
  'fixed_at',
  'reopened_at',
];
export const PERIOD_FACT_COLUMNS = ['opened_at', 'closed_at', 'severity'];
