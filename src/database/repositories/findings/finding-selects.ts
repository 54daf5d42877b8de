import { selectList } from '../../tables/column-table.js';
import { FINDING_SOURCE_INSERT_COLUMNS } from '../../tables/finding-sources.table.js';
import { FINDING_COLUMNS } from '../../tables/findings.table.js';

/** Whole findings rows (the date as its text), without their WHERE. */
export const FINDINGS_SELECT = `SELECT ${selectList(
  Object.values(FINDING_COLUMNS).map((column) =>
    column.type === 'json' ? { name: column.name, type: 'text' as const } : column,
  ),
)} FROM findings`;

/** The columns of a finding the planner reads (PlannedFinding), in this order. */
export const PLANNED_FINDING_COLUMNS = [
  FINDING_COLUMNS.id,
  FINDING_COLUMNS.assetId,
  FINDING_COLUMNS.vulnId,
  FINDING_COLUMNS.score,
  FINDING_COLUMNS.summary,
  FINDING_COLUMNS.publishedDate,
  FINDING_COLUMNS.status,
  FINDING_COLUMNS.fixedAt,
  FINDING_COLUMNS.reopenedAt,
  FINDING_COLUMNS.reopenCount,
  FINDING_COLUMNS.acceptedUntil,
] as const;

/**
 * PLANNED_FINDING_COLUMNS of findings, without their WHERE: a repeated ingestion reads every
 * finding of its assets, and each column more is a value made for each of them.
 */
export const PLANNED_FINDINGS_SELECT = `SELECT ${selectList(PLANNED_FINDING_COLUMNS)} FROM findings`;

/** finding_sources rows, without their WHERE. */
export const FINDING_SOURCES_SELECT = `SELECT ${selectList(FINDING_SOURCE_INSERT_COLUMNS)} FROM finding_sources`;

/**
 * finding_sources rows of the findings of assets, without their WHERE (on `f.asset_id`): read
 * by the assets' ids, already bound once for their findings, rather than by every finding's.
 */
export const FINDING_SOURCES_OF_ASSETS_SELECT = `SELECT ${FINDING_SOURCE_INSERT_COLUMNS.map(
  ({ name }) => `s.${name}`,
).join(', ')} FROM finding_sources s JOIN findings f ON f.id = s.finding_id`;
