import { selectIn, type IngestLookups } from '../../ingest-sql.js';
import type { FindingSourceRow } from '../../tables/finding-sources.table.js';
import type { FindingRow } from '../../tables/findings.table.js';
import { FINDING_SOURCES_SELECT, FINDINGS_SELECT } from './finding-selects.js';

/**
 * What a finding event shows of its findings, read in the write's transaction (a route's unit
 * or an ingestion's) once they are written: their rows, and their sources in order.
 */
export class FindingEventReads {
  constructor(private readonly db: IngestLookups) {}

  rows(ids: readonly string[]): Promise<FindingRow[]> {
    return selectIn(this.db, FINDINGS_SELECT, 'id', ids);
  }

  /** Their sources, by finding, in order. */
  async sources(ids: readonly string[]): Promise<Map<string, string[]>> {
    const rows = await selectIn<FindingSourceRow>(
      this.db,
      FINDING_SOURCES_SELECT,
      'finding_id',
      ids,
      'ORDER BY finding_id, position',
    );
    return sourcesByFinding(rows);
  }
}

/** finding_sources rows, in order, as each finding's list of sources. */
export function sourcesByFinding(rows: readonly FindingSourceRow[]): Map<string, string[]> {
  const byFinding = new Map<string, string[]>();
  for (const row of rows) {
    const list = byFinding.get(row.finding_id);
    if (list) list.push(row.source);
    else byFinding.set(row.finding_id, [row.source]);
  }
  return byFinding;
}
