import type { Finding } from '../entities/finding.entity.js';
import type { InsertColumn } from '../ingest-sql.js';
import { integer, json, text, timestamp, type RowOf, type TableColumn } from './column-table.js';

/**
 * The findings table: the column of each property of the entity (its relation to the asset
 * aside), in the table's order, typed as a statement binds them. The compiler holds it to the
 * entity. The inserts, the selects and the row type are derived from it.
 */
export const FINDING_COLUMNS = {
  id: text('id'),
  assetId: text('asset_id'),
  vulnId: text('vuln_id'),
  score: { name: 'score', type: 'double precision' },
  severity: text('severity'),
  summary: text('summary'),
  publishedDate: { name: 'published_date', type: 'date' },
  status: text('status'),
  firstSeenAt: timestamp('first_seen_at'),
  lastSeenAt: timestamp('last_seen_at'),
  fixedAt: timestamp('fixed_at'),
  reopenedAt: timestamp('reopened_at'),
  reopenCount: integer('reopen_count'),
  reason: text('reason'),
  acceptedUntil: timestamp('accepted_until'),
  triagedBy: json('triaged_by'),
} as const satisfies { [P in Exclude<keyof Finding, 'asset'>]-?: TableColumn };

/**
 * What an ingestion's insert of a new finding writes: every column but the triage's (a new
 * finding is not triaged: NULL by default).
 */
export const FINDING_INSERT_COLUMNS: InsertColumn[] = [
  FINDING_COLUMNS.id,
  FINDING_COLUMNS.assetId,
  FINDING_COLUMNS.vulnId,
  FINDING_COLUMNS.score,
  FINDING_COLUMNS.severity,
  FINDING_COLUMNS.summary,
  FINDING_COLUMNS.publishedDate,
  FINDING_COLUMNS.status,
  FINDING_COLUMNS.firstSeenAt,
  FINDING_COLUMNS.lastSeenAt,
  FINDING_COLUMNS.fixedAt,
  FINDING_COLUMNS.reopenedAt,
  FINDING_COLUMNS.reopenCount,
];

/** A findings row as raw SQL reads it (the date as its text, the triage's actor as JSON text). */
export type FindingRow = RowOf<Finding, Omit<typeof FINDING_COLUMNS, 'triagedBy'>> & {
  triaged_by: string | null;
};

/**
 * An entry of an asset's `vulnerabilities` as the reads select it (one of its open or accepted
 * findings, asset-selects.ts): named as the API names it, the date as its text.
 */
export interface VulnerabilityRow {
  asset_id: string;
  id: string;
  score: number | null;
  summary: string | null;
  published_date: string | null;
}
