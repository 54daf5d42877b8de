import type { FindingStatus } from '../../../common/field-rules/finding-values.js';
import { selectIn, type IngestLookups } from '../../ingest-sql.js';
import type { FindingRow } from '../../tables/findings.table.js';
import type { FindingSourceRow } from '../../tables/finding-sources.table.js';
import { FINDING_SOURCES_OF_ASSETS_SELECT, PLANNED_FINDINGS_SELECT } from './finding-selects.js';

/**
 * A stored finding as the finding planner reads it (src/findings/plan/plan-findings.ts), with
 * what its status change records show.
 */
export interface PlannedFinding {
  id: string;
  vulnId: string;
  score: number | null;
  summary: string | null;
  publishedDate: string | null;
  status: FindingStatus;
  /** Its `sources`, in order. */
  sources: readonly string[];
  /** The position a feed added now takes among them. */
  nextPosition: number;
  assetId: string;
  fixedAt: Date | string | null;
  reopenedAt: Date | string | null;
  reopenCount: number;
  acceptedUntil: Date | string | null;
}

/** A findings row as PLANNED_FINDINGS_SELECT reads it. */
type PlannedFindingRow = Pick<
  FindingRow,
  | 'id'
  | 'asset_id'
  | 'vuln_id'
  | 'score'
  | 'summary'
  | 'published_date'
  | 'status'
  | 'fixed_at'
  | 'reopened_at'
  | 'reopen_count'
  | 'accepted_until'
>;

/**
 * The findings of assets as a write that lists their vulnerabilities plans against them (an
 * ingestion's lookups, or a route's unit), with their `sources`. Lists of ids are bound
 * `IN (...)`, idsPerStatement to a statement.
 */
export class FindingStoredRows {
  constructor(private readonly db: IngestLookups) {}

  /** Every finding of these assets, whatever its status, by asset id. */
  async ofAssets(assetIds: readonly string[]): Promise<Map<string, PlannedFinding[]>> {
    const byAsset = new Map<string, PlannedFinding[]>();
    if (assetIds.length === 0) return byAsset;
    const rows = await selectIn<PlannedFindingRow>(
      this.db,
      PLANNED_FINDINGS_SELECT,
      'asset_id',
      assetIds,
    );
    const sources = await selectIn<FindingSourceRow>(
      this.db,
      FINDING_SOURCES_OF_ASSETS_SELECT,
      'f.asset_id',
      assetIds,
      'ORDER BY s.finding_id, s.position',
    );
    const sourcesOf = new Map<string, { names: string[]; next: number }>();
    for (const row of sources) {
      const entry = sourcesOf.get(row.finding_id);
      if (entry) {
        entry.names.push(row.source);
        entry.next = row.position + 1;
      } else sourcesOf.set(row.finding_id, { names: [row.source], next: row.position + 1 });
    }
    for (const row of rows) {
      const own = sourcesOf.get(row.id);
      const finding: PlannedFinding = {
        id: row.id,
        assetId: row.asset_id,
        vulnId: row.vuln_id,
        score: row.score,
        summary: row.summary,
        publishedDate: row.published_date,
        status: row.status,
        sources: own?.names ?? [],
        nextPosition: own?.next ?? 0,
        fixedAt: row.fixed_at,
        reopenedAt: row.reopened_at,
        reopenCount: Number(row.reopen_count),
        acceptedUntil: row.accepted_until,
      };
      const list = byAsset.get(row.asset_id);
      if (list) list.push(finding);
      else byAsset.set(row.asset_id, [finding]);
    }
    return byAsset;
  }
}
