import type { FindingSource } from '../entities/finding-source.entity.js';
import type { InsertColumn } from '../ingest-sql.js';
import { integer, text, type RowOf } from './column-table.js';

/** The finding_sources table (a finding's `sources`), as asset_sources.table.ts is the assets'. */
export const FINDING_SOURCE_COLUMNS = {
  findingId: text('finding_id'),
  source: text('source'),
  position: integer('position'),
} as const satisfies { [P in Exclude<keyof FindingSource, 'finding'>]-?: InsertColumn };

export const FINDING_SOURCE_INSERT_COLUMNS: InsertColumn[] = Object.values(FINDING_SOURCE_COLUMNS);

export type FindingSourceRow = RowOf<FindingSource, typeof FINDING_SOURCE_COLUMNS>;
