import type { FindingStatus } from '../../../common/field-rules/finding-values.js';
import type { VulnerabilityValues } from '../../../common/field-rules/vulnerability-list.js';
import {
  chunks,
  idsPerStatement,
  placeholders,
  selectArraysIn,
  type IngestLookups,
} from '../../ingest-sql.js';
import { PLANNED_FINDINGS_SELECT, standingFindings } from './finding-selects.js';

/** A vulnerability list a write gives a stored asset, as FindingStoredRows.asListed takes it. */
export interface GivenVulnerabilities {
  assetId: string;
  listed: readonly VulnerabilityValues[];
}

/**
 * A standing finding's vulnId, summary and date as one text, each length-prefixed so that equal
 * texts are equal values (listedText writes a listed vulnerability's alike); the score apart.
 */
const STANDING_TEXT = `length(vuln_id) || ':' || vuln_id || ' ' || COALESCE(length(summary) || ':' || summary, '-') || ' ' || COALESCE(CAST(published_date AS TEXT), '-')`;

const byId = (a: VulnerabilityValues, b: VulnerabilityValues) =>
  a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

/** A list's entries as STANDING_TEXT writes them, in vulnId order, separated by `,`. */
function listedText(sorted: readonly VulnerabilityValues[]): string {
  let text = '';
  for (const { id, summary, publishedDate } of sorted) {
    if (text !== '') text += ',';
    text += `${id.length}:${id} ${summary === null ? '-' : `${summary.length}:${summary}`} ${publishedDate ?? '-'}`;
  }
  return text;
}

/** Whether the standing findings' texts and scores (as the database wrote them) are `listed`'s. */
function sameAsStanding(
  listed: readonly VulnerabilityValues[],
  standing: readonly [text: string, scores: string] | undefined,
): boolean {
  if (standing === undefined) return listed.length === 0;
  const sorted = listed.length < 2 ? listed : [...listed].sort(byId);
  if (listedText(sorted) !== standing[0]) return false;
  // Each score as its exact text (both databases write a double so that it reads back the same).
  const scores = standing[1].split(' ');
  return sorted.every(({ score }, i) => (scores[i] === '' ? null : Number(scores[i])) === score);
}

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

  /**
   * Which of `lists` leave their asset's findings as they are, compared by the database: each
   * listed vulnerability is a finding that is not fixed, with the same values and (with a
   * `source`) among the source's, and each finding that is not fixed (with a source: among its
   * findings) is listed. Such a list changes nothing but the listed findings' sightings
   * (FindingWrites.seenAsListed), and its asset's findings need not be read: for most assets of
   * a repeated scan the database answers one row of two texts rather than every finding with
   * its sources, which cost the service more than the writes it plans. A difference in how a
   * value is written (an astral character's length, say) only sends the list the long way.
   */
  async asListed(
    lists: readonly GivenVulnerabilities[],
    source: string | null,
  ): Promise<boolean[]> {
    const answer = new Array<boolean>(lists.length).fill(false);
    if (lists.length === 0) return answer;
    const standingOnes = standingFindings(source, 'f.id');
    const order = this.db.dialect.bytewise('vuln_id');
    const standing = new Map<string, [string, string]>();
    const assetIds = [...new Set(lists.map(({ assetId }) => assetId))];
    for (const part of chunks(assetIds, idsPerStatement(this.db) - 1)) {
      const rows = await this.db.arrays(
        `SELECT asset_id, string_agg(${STANDING_TEXT}, ',' ORDER BY ${order}),
          string_agg(COALESCE(CAST(score AS TEXT), ''), ' ' ORDER BY ${order})
        FROM findings f WHERE asset_id IN (${placeholders(part)}) AND ${standingOnes.condition}
        GROUP BY asset_id`,
        [...part, ...standingOnes.params],
      );
      for (const [assetId, text, scores] of rows)
        standing.set(assetId as string, [text as string, scores as string]);
    }
    lists.forEach(({ assetId, listed }, k) => {
      answer[k] = sameAsStanding(listed, standing.get(assetId));
    });
    return answer;
  }

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
