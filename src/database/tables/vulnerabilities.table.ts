import type { Vulnerability } from '../entities/vulnerability.entity.js';
import type { InsertColumn } from '../ingest-sql.js';
import { text, type RowOf } from './column-table.js';

/**
 * The vulnerabilities table: the column of each property of the entity (its relation to the
 * asset aside), in the table's order, typed as bulk inserts type it. The compiler holds it to
 * the entity. The inserts, the selects (the date as its text) and the row type are derived
 * from it.
 */
export const VULNERABILITY_COLUMNS = {
  assetId: text('asset_id'),
  id: text('id'),
  score: { name: 'score', type: 'double precision' },
  summary: text('summary'),
  publishedDate: { name: 'published_date', type: 'date' },
} as const satisfies { [P in Exclude<keyof Vulnerability, 'asset'>]-?: InsertColumn };

/** Every column, in the table's order: what an insert of a whole row writes. */
export const VULNERABILITY_INSERT_COLUMNS: InsertColumn[] = Object.values(VULNERABILITY_COLUMNS);

/** A vulnerabilities row, its date read as text ('YYYY-MM-DD'). */
export type VulnerabilityRow = RowOf<Vulnerability, typeof VULNERABILITY_COLUMNS>;

/** A vulnerability's values beside its asset's id, as an item gives them. */
export type VulnerabilityValues = Omit<Vulnerability, 'assetId' | 'asset'>;

/** An insert's row of `vulnerability`, in VULNERABILITY_INSERT_COLUMNS' order. */
export const vulnerabilityRow = (
  assetId: string,
  vulnerability: VulnerabilityValues,
): unknown[] => [
  assetId,
  vulnerability.id,
  vulnerability.score,
  vulnerability.summary,
  vulnerability.publishedDate,
];
