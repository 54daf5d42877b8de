import type { FindingStatus } from '../../../common/field-rules/finding-values.js';
import { selectArraysIn, type IngestLookups } from '../../ingest-sql.js';
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

/**
 * A findings row as PLANNED_FINDINGS_SELECT reads it: an array in PLANNED_FINDING_COLUMNS'
 * order (a repeated ingestion reads every finding of its assets, and an object of each row by
 * its column names cost more than the read).
 */
type PlannedFindingRow = [
  id: string,
  assetId: string,
  vulnId: string,
  score: number | null,
  summary: string | null,
  publishedDate: string | null,
  status: FindingStatus,
  fixedAt: Date | string | null,
  reopenedAt: Date | string | null,
  reopenCount: number | string,
  acceptedUntil: Date | string | null,
];

/** A finding_sources row as FINDING_SOURCES_OF_ASSETS_SELECT reads it, as an array. */
type SourceRow = [findingId: string, source: string, position: number];

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
    const rows = (await selectArraysIn(
      this.db,
      PLANNED_FINDINGS_SELECT,
      'asset_id',
      assetIds,
    )) as PlannedFindingRow[];
    const sources = (await selectArraysIn(
      this.db,
      FINDING_SOURCES_OF_ASSETS_SELECT,
      'f.asset_id',
      assetIds,
      'ORDER BY s.finding_id, s.position',
    )) as SourceRow[];
    const sourcesOf = new Map<string, { names: string[]; next: number }>();
    for (const [findingId, source, position] of sources) {
      const entry = sourcesOf.get(findingId);
      if (entry) {
        entry.names.push(source);
        entry.next = position + 1;
      } else sourcesOf.set(findingId, { names: [source], next: position + 1 });
    }
    for (const row of rows) {
      const [id, assetId, vulnId, score, summary, publishedDate, status] = row;
      const own = sourcesOf.get(id);
      const finding: PlannedFinding = {
        id,
        assetId,
        vulnId,
        score,
        summary,
        publishedDate,
        status,
        sources: own?.names ?? [],
        nextPosition: own?.next ?? 0,
        fixedAt: row[7],
        reopenedAt: row[8],
        reopenCount: Number(row[9]),
        acceptedUntil: row[10],
      };
      const list = byAsset.get(assetId);
      if (list) list.push(finding);
      else byAsset.set(assetId, [finding]);
    }
    return byAsset;
  }
}
