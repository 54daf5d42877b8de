import { selectList } from '../../tables/column-table.js';
import {
  FINDING_SOURCE_COLUMNS,
  FINDING_SOURCE_INSERT_COLUMNS,
} from '../../tables/finding-sources.table.js';
import { FINDING_COLUMNS } from '../../tables/findings.table.js';

/** The columns of whole findings rows (the date as its text). */
export const FINDING_SELECT_LIST = selectList(
  Object.values(FINDING_COLUMNS).map((column) =>
    column.type === 'json' ? { name: column.name, type: 'text' as const } : column,
  ),
);

/** Whole findings rows (the date as its text), without their WHERE. */
export const FINDINGS_SELECT = `SELECT ${FINDING_SELECT_LIST} FROM findings`;

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
 * PLANNED_FINDING_COLUMNS of findings `f`, then the name and position of one of its sources
 * (a row per source; NULLs for a finding without one), without their WHERE (on `f.asset_id`): a
 * repeated ingestion reads every finding of its assets with its sources, in one statement
 * rather than a second one over finding_sources, and each column more is a value made for each.
 * The findings' columns are named bare: finding_sources has none of their names.
 */
export const PLANNED_FINDINGS_SELECT = `SELECT ${selectList(PLANNED_FINDING_COLUMNS)}, s.${
  FINDING_SOURCE_COLUMNS.source.name
}, s.${FINDING_SOURCE_COLUMNS.position.name} FROM findings f LEFT JOIN finding_sources s ON s.${
  FINDING_SOURCE_COLUMNS.findingId.name
} = f.id`;

/** finding_sources rows, without their WHERE. */
export const FINDING_SOURCES_SELECT = `SELECT ${selectList(FINDING_SOURCE_INSERT_COLUMNS)} FROM finding_sources`;

/**
 * The findings a write's vulnerability list stands for on its asset (`findingId`: their id's
 * column), with the condition's parameters: those not fixed and, where the write has a source,
 * reported by it. FindingStoredRows.asListed compares a list with them and
 * FindingWrites.seenAsListed moves their sighting: both must read the same findings.
 */
export function standingFindings(
  source: string | null,
  findingId: string,
): { condition: string; params: unknown[] } {
  if (source === null) return { condition: "status <> 'fixed'", params: [] };
  return {
    condition: `status <> 'fixed' AND EXISTS (SELECT 1 FROM finding_sources s WHERE s.finding_id = ${findingId} AND s.source = ?)`,
    params: [source],
  };
}
