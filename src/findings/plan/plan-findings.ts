import type { FindingStatus } from '../../common/field-rules/finding-values.js';
import type { VulnerabilityValues } from '../../common/field-rules/vulnerability-list.js';
import type { PlannedFinding } from '../../database/repositories/findings/finding-stored-rows.js';

/** A vulnerability as a write lists it on an asset (an ingestion item, a scanner host, a route). */
export type ListedVulnerability = VulnerabilityValues;

/** A stored finding as the planner reads it (the lookups' rows carry more, for the records). */
export type StoredFinding = Pick<
  PlannedFinding,
  'id' | 'vulnId' | 'score' | 'summary' | 'publishedDate' | 'status' | 'sources' | 'nextPosition'
>;

/** A stored finding whose values or status the write changes. */
export interface FindingChange {
  stored: StoredFinding;
  /** The listed values, when they differ from the stored ones. */
  values: ListedVulnerability | null;
  /** `fixed` (not listed) or `open` (a fixed one listed: reopened); null when it stays. */
  status: 'fixed' | 'open' | null;
}

/** What a write that gives an asset's vulnerabilities does to the asset's findings. */
export interface FindingListPlan {
  /** Listed vulnerabilities without a finding: new open findings, in list order. */
  creates: { id: string; values: ListedVulnerability }[];
  /** Stored findings whose values or status change (their vulnIds in list, then stored, order). */
  changes: FindingChange[];
  /** Every listed stored finding: its last sighting moves (the write's time). */
  seen: string[];
  /** Findings the write's source joins, with the position it takes. */
  sourceAdds: [findingId: string, position: number][];
  /** Open or accepted findings not listed that the write's source leaves. */
  sourceRemovals: string[];
  /**
   * The asset's listed findings (open or accepted) before the write, and after; null when the
   * write creates and changes no finding, so that the list shown stays as it was (most assets
   * of a repeated scan: not built for them).
   */
  shown: { before: ListedVulnerability[]; after: ListedVulnerability[] } | null;
  /** The vulnIds opened (new), reopened and fixed by the write, in list order (fixed: stored order). */
  opened: string[];
  reopened: string[];
  fixed: string[];
}

const LISTED: ReadonlySet<FindingStatus> = new Set(['open', 'accepted']);

const valuesOf = (finding: StoredFinding): ListedVulnerability => ({
  id: finding.vulnId,
  score: finding.score,
  summary: finding.summary,
  publishedDate: finding.publishedDate,
});

const sameValues = (finding: StoredFinding, listed: ListedVulnerability): boolean =>
  finding.score === listed.score &&
  finding.summary === listed.summary &&
  finding.publishedDate === listed.publishedDate;

/**
 * The findings of one asset after a write that lists its vulnerabilities (`listed`, validated:
 * one entry per id), given what is stored (`stored`, every status), the write's feed (`source`,
 * null for a route or an ingestion without one) and the ids of new findings (`newId`).
 *
 * - A listed vulnerability without a finding opens one; a `fixed` one reopens; any other keeps
 *   its status. Its values take the listed ones and the source joins its `sources`.
 * - An `open` or `accepted` finding not listed is fixed without a source. With a source S, S
 *   leaves its `sources`, and it is fixed only when S was one of them and none is left: a feed
 *   fixes only what it reported, never what another feed still reports or what was entered by
 *   hand.
 * - A `false_positive` finding never changes status here.
 */
export function planFindings(
  stored: readonly StoredFinding[],
  listed: readonly ListedVulnerability[],
  source: string | null,
  newId: () => string,
): FindingListPlan {
  const plan: FindingListPlan = {
    creates: [],
    changes: [],
    seen: [],
    sourceAdds: [],
    sourceRemovals: [],
    shown: null,
    opened: [],
    reopened: [],
    fixed: [],
  };
  const byVulnId = new Map<string, StoredFinding>();
  for (const finding of stored) byVulnId.set(finding.vulnId, finding);
  let listedStored = 0;
  for (const vulnerability of listed) {
    const finding = byVulnId.get(vulnerability.id);
    if (finding === undefined) {
      const id = newId();
      plan.creates.push({ id, values: vulnerability });
      plan.opened.push(vulnerability.id);
      continue;
    }
    listedStored++;
    plan.seen.push(finding.id);
    const reopens = finding.status === 'fixed';
    const values = sameValues(finding, vulnerability) ? null : vulnerability;
    if (reopens || values !== null)
      plan.changes.push({ stored: finding, values, status: reopens ? 'open' : null });
    if (reopens) plan.reopened.push(vulnerability.id);
    if (source !== null && !finding.sources.includes(source))
      plan.sourceAdds.push([finding.id, finding.nextPosition]);
  }
  // Most lists of a repeated scan name every stored finding: nothing is left to leave.
  const unlisted =
    listedStored === stored.length ? [] : notListed(stored, new Set(listed.map(({ id }) => id)));
  const kept: StoredFinding[] = [];
  for (const finding of unlisted) {
    let fixes = source === null;
    if (source !== null && finding.sources.includes(source)) {
      plan.sourceRemovals.push(finding.id);
      fixes = finding.sources.length === 1;
    }
    if (fixes) {
      plan.changes.push({ stored: finding, values: null, status: 'fixed' });
      plan.fixed.push(finding.vulnId);
    } else kept.push(finding);
  }
  if (plan.creates.length > 0 || plan.changes.length > 0) {
    plan.shown = {
      before: stored.filter((finding) => LISTED.has(finding.status)).map(valuesOf),
      after: shownAfter(listed, byVulnId, kept),
    };
  }
  return plan;
}

/** The open or accepted stored findings whose vulnIds `listed` does not hold. */
function notListed(stored: readonly StoredFinding[], listed: ReadonlySet<string>): StoredFinding[] {
  return stored.filter((finding) => !listed.has(finding.vulnId) && LISTED.has(finding.status));
}

/**
 * The asset's listed findings after the write: the listed vulnerabilities that are new, reopen
 * or stay open or accepted, then the unlisted findings that stay (`kept`), as they are.
 */
function shownAfter(
  listed: readonly ListedVulnerability[],
  byVulnId: ReadonlyMap<string, StoredFinding>,
  kept: readonly StoredFinding[],
): ListedVulnerability[] {
  const after = listed.filter((vulnerability) => {
    const finding = byVulnId.get(vulnerability.id);
    return finding === undefined || finding.status === 'fixed' || LISTED.has(finding.status);
  });
  return [...after, ...kept.map(valuesOf)];
}

/** Whether two lists hold the same vulnerabilities with the same values, whatever their order. */
export function sameListed(
  a: readonly ListedVulnerability[],
  b: readonly ListedVulnerability[],
): boolean {
  if (a.length !== b.length) return false;
  const byId = new Map(a.map((entry) => [entry.id, entry]));
  return b.every((entry) => {
    const other = byId.get(entry.id);
    return (
      other !== undefined &&
      other.score === entry.score &&
      other.summary === entry.summary &&
      other.publishedDate === entry.publishedDate
    );
  });
}
