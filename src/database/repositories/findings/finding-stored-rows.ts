import type { FindingStatus } from '../../../common/field-rules/finding-values.js';
import { selectArraysIn, type IngestLookups } from '../../ingest-sql.js';
import { PLANNED_FINDINGS_SELECT } from './finding-selects.js';

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
 * A row of PLANNED_FINDINGS_SELECT: an array in PLANNED_FINDING_COLUMNS' order, then one of the
 * finding's sources and its position (a repeated ingestion reads every finding of its assets,
 * and an object of each row by its column names cost more than the read).
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
  source: string | null,
  position: number | string | null,
];

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
      'f.asset_id',
      assetIds,
    )) as PlannedFindingRow[];
    const byId = new Map<string, PlannedFinding>();
    // A finding with several sources has a row for each, not necessarily one after the other:
    // its sources and their positions, gathered here, are put in order at the end.
    const several = new Map<string, [source: string, position: number][]>();
    for (const row of rows) {
      const [id, assetId, vulnId, score, summary, publishedDate, status] = row;
      const source = row[11];
      const position = row[12] === null ? null : Number(row[12]);
      const known = byId.get(id);
      if (known) {
        let sources = several.get(id);
        // One source so far: its position is the one before the next.
        if (!sources) several.set(id, (sources = [[known.sources[0], known.nextPosition - 1]]));
        sources.push([source!, position!]);
        continue;
      }
      const finding: PlannedFinding = {
        id,
        assetId,
        vulnId,
        score,
        summary,
        publishedDate,
        status,
        sources: source === null ? [] : [source],
        nextPosition: position === null ? 0 : position + 1,
        fixedAt: row[7],
        reopenedAt: row[8],
        reopenCount: Number(row[9]),
        acceptedUntil: row[10],
      };
      byId.set(id, finding);
      const list = byAsset.get(assetId);
      if (list) list.push(finding);
      else byAsset.set(assetId, [finding]);
    }
    for (const [id, sources] of several) {
      sources.sort((a, b) => a[1] - b[1]);
      const finding = byId.get(id)!;
      finding.sources = sources.map(([source]) => source);
      finding.nextPosition = sources[sources.length - 1][1] + 1;
    }
    return byAsset;
  }
}
