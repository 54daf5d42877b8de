import type { CsvColumn } from '../common/export/export-text.js';
import type { FindingResponse } from './dto/finding-response.dto.js';

/**
 * The findings' CSV, in its order: every field of the answer, `sources` separated by spaces,
 * `overdue` as `true` or `false`, and `triagedBy` as the e-mail of who triaged it.
 */
export const FINDING_CSV_COLUMNS: readonly CsvColumn<FindingResponse>[] = [
  { name: 'id', cell: (finding) => finding.id },
  { name: 'assetId', cell: (finding) => finding.assetId },
  { name: 'vulnId', cell: (finding) => finding.vulnId },
  { name: 'score', cell: (finding) => finding.score },
  { name: 'severity', cell: (finding) => finding.severity },
  { name: 'status', cell: (finding) => finding.status },
  { name: 'summary', cell: (finding) => finding.summary },
  { name: 'publishedDate', cell: (finding) => finding.publishedDate },
  { name: 'sources', cell: (finding) => finding.sources.join(' ') },
  { name: 'firstSeenAt', cell: (finding) => finding.firstSeenAt },
  { name: 'lastSeenAt', cell: (finding) => finding.lastSeenAt },
  { name: 'fixedAt', cell: (finding) => finding.fixedAt },
  { name: 'reopenedAt', cell: (finding) => finding.reopenedAt },
  { name: 'reopenCount', cell: (finding) => finding.reopenCount },
  { name: 'dueAt', cell: (finding) => finding.dueAt },
  { name: 'overdue', cell: (finding) => String(finding.overdue) },
  { name: 'reason', cell: (finding) => finding.reason },
  { name: 'acceptedUntil', cell: (finding) => finding.acceptedUntil },
  { name: 'triagedBy', cell: (finding) => finding.triagedBy?.email ?? null },
];
