/**
 * Values a finding's fields take, shared by the entity that stores them, the planner that
 * decides them and the rules that check them.
 */

export const FINDING_STATUSES = ['open', 'fixed', 'false_positive', 'accepted'] as const;
export type FindingStatus = (typeof FINDING_STATUSES)[number];

/** The statuses a triage sets (PATCH /api/findings/:id). */
export const TRIAGE_STATUSES = ['false_positive', 'accepted', 'open'] as const;
export type TriageStatus = (typeof TRIAGE_STATUSES)[number];

/** From the most to the least severe. */
export const SEVERITIES = ['critical', 'high', 'medium', 'low', 'none'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** The severities a due date applies to (`none` has none). */
export type DueSeverity = Exclude<Severity, 'none'>;

/** A score's severity: critical from 9.0, high from 7.0, medium from 4.0, low above 0. */
export function severityOf(score: number | null): Severity {
  if (score === null || score <= 0) return 'none';
  if (score >= 9) return 'critical';
  if (score >= 7) return 'high';
  if (score >= 4) return 'medium';
  return 'low';
}

/** The fields the findings list sorts by (its `sort`, `-` before one for descending). */
export const FINDING_SORT_FIELDS = [
  'score',
  'firstSeenAt',
  'lastSeenAt',
  'dueAt',
  'fixedAt',
] as const;
export type FindingSortField = (typeof FINDING_SORT_FIELDS)[number];

/** The longest triage reason, and how far ahead an acceptance may run. */
export const MAX_REASON_LENGTH = 1000;
export const MAX_ACCEPTANCE_DAYS = 366;
