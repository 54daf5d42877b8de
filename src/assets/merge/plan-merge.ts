// The decisions of a merge (POST /api/assets/:id/merge), as pure functions over what its unit
// read: which findings are kept and with what sightings, which relations move and which go,
// what diagrams name. The service reads, calls these, and writes what they answer.

import type { FindingStatus } from '../../common/field-rules/finding-values.js';

/** The values of `lists` in turn, each once (the first list's first: the target's own). */
export function union<T>(lists: readonly (readonly T[])[], key: (value: T) => string): T[] {
  const seen = new Set<string>();
  const merged: T[] = [];
  for (const list of lists) {
    for (const value of list) {
      const at = key(value);
      if (seen.has(at)) continue;
      seen.add(at);
      merged.push(value);
    }
  }
  return merged;
}

/** A span a finding was open or accepted (the trend counts them); closedAt null: still. */
export interface OpenSpan {
  openedAt: Date;
  closedAt: Date | null;
}

/** A finding as a merge reads it. */
export interface MergedFinding {
  id: string;
  assetId: string;
  vulnId: string;
  status: FindingStatus;
  firstSeenAt: Date;
  lastSeenAt: Date;
  /** Its open spans, in any order. */
  periods: readonly OpenSpan[];
  /** Its `sources`, in order. */
  sources: readonly string[];
  /** The position a feed added to its `sources` takes. */
  nextPosition: number;
}

/** A finding the merge keeps, on the target, with the sightings and sources of those it folds in. */
export interface FindingFold {
  id: string;
  firstSeenAt: Date;
  lastSeenAt: Date;
  /** Feeds its `sources` gain, each with its position. */
  sourceAdds: { source: string; position: number }[];
  /** Its open spans joined with those of the findings folded into it; null: its own stand. */
  periods: OpenSpan[] | null;
}

const earliest = (dates: readonly Date[]) => new Date(Math.min(...dates.map(Number)));
const latest = (dates: readonly Date[]) => new Date(Math.max(...dates.map(Number)));

/**
 * One finding per vulnerability id on the target: its own (status, score, summary and all) if
 * it has one, else the most recently seen of the merged assets' (the first in `from` order on
 * a tie), with the earliest first and the latest last sighting of them all, their sources
 * after its own, and their open spans joined with its own (joinSpans), so that the trend's past
 * days still count the one real finding they were. Answers the kept findings that change
 * (moved, or sightings, sources or spans gained); the others go with their assets.
 */
export function planFindingFolds(
  target: string,
  from: readonly string[],
  findings: readonly MergedFinding[],
  now: Date,
): FindingFold[] {
  const rank = new Map<string, number>([[target, -1], ...from.map((id, at) => [id, at] as const)]);
  const byVuln = new Map<string, MergedFinding[]>();
  for (const finding of findings) {
    const group = byVuln.get(finding.vulnId);
    if (group) group.push(finding);
    else byVuln.set(finding.vulnId, [finding]);
  }
  const folds: FindingFold[] = [];
  for (const group of byVuln.values()) {
    group.sort((a, b) => rank.get(a.assetId)! - rank.get(b.assetId)!);
    const own = group.find((finding) => finding.assetId === target);
    const kept =
      own ??
      group.reduce((best, finding) =>
        finding.lastSeenAt.getTime() > best.lastSeenAt.getTime() ? finding : best,
      );
    const firstSeenAt = earliest(group.map((finding) => finding.firstSeenAt));
    const lastSeenAt = latest(group.map((finding) => finding.lastSeenAt));
    const gained = union(
      [kept.sources, ...group.filter((finding) => finding !== kept).map((f) => f.sources)],
      String,
    ).slice(kept.sources.length);
    const sourceAdds = gained.map((source, at) => ({ source, position: kept.nextPosition + at }));
    const joined = joinSpans(
      kept,
      group.filter((finding) => finding !== kept),
      now,
    );
    const periods = sameSpans(joined, kept.periods) ? null : joined;
    const changes =
      kept.assetId !== target ||
      firstSeenAt.getTime() !== kept.firstSeenAt.getTime() ||
      lastSeenAt.getTime() !== kept.lastSeenAt.getTime() ||
      sourceAdds.length > 0 ||
      periods !== null;
    if (changes) folds.push({ id: kept.id, firstSeenAt, lastSeenAt, sourceAdds, periods });
  }
  return folds;
}

/** Statuses whose finding has an open span (the trend counts an accepted finding as open). */
const SPAN_OPEN: ReadonlySet<FindingStatus> = new Set(['open', 'accepted']);

/**
 * The open spans of the kept finding with those of the findings folded into it, as one
 * finding's: spans that overlap or touch become one, oldest first. The kept finding's status
 * stands, so when it is not open (fixed, a false positive) a folded finding's span still open
 * ends at `now`, the merge; when it is, its one open span starts at the earliest opening that
 * runs into it.
 */
export function joinSpans(
  kept: Pick<MergedFinding, 'status' | 'periods'>,
  folded: readonly Pick<MergedFinding, 'periods'>[],
  now: Date,
): OpenSpan[] {
  const ends = (span: OpenSpan) => span.closedAt?.getTime() ?? Infinity;
  const spans = [
    ...kept.periods,
    ...folded.flatMap((finding) =>
      finding.periods.map((span) =>
        span.closedAt === null && !SPAN_OPEN.has(kept.status) ? { ...span, closedAt: now } : span,
      ),
    ),
  ]
    .filter((span) => span.openedAt.getTime() < ends(span))
    .sort((a, b) => a.openedAt.getTime() - b.openedAt.getTime());
  const joined: OpenSpan[] = [];
  for (const span of spans) {
    const last = joined[joined.length - 1];
    if (last !== undefined && span.openedAt.getTime() <= ends(last)) {
      if (ends(span) > ends(last)) last.closedAt = span.closedAt;
    } else joined.push({ ...span });
  }
  return joined;
}

/** Whether two lists of spans hold the same spans (in any order). */
function sameSpans(a: readonly OpenSpan[], b: readonly OpenSpan[]): boolean {
  const key = (span: OpenSpan) => `${span.openedAt.getTime()}-${span.closedAt?.getTime() ?? ''}`;
  const keys = new Set(a.map(key));
  return a.length === b.length && b.every((span) => keys.has(key(span)));
}

/** A relation as a merge reads it. */
export interface MergedRelation {
  id: string;
  sourceAssetId: string;
  targetAssetId: string;
  type: string;
  createdAt: Date;
}

/** What becomes of the relations touching the target and the merged assets. */
export interface RelationMoves<R extends MergedRelation> {
  /** Those that would join the target to itself, or repeat another in ends and type. */
  deletes: R[];
  /** Those re-pointed to the target, with their new ends. */
  moves: { relation: R; sourceAssetId: string; targetAssetId: string }[];
}

/**
 * Relations of the merged assets re-pointed to `target`: one that would then join the target to
 * itself goes; of relations then identical in source, target and type, one stays (one the merge
 * does not move, else the earliest created) and the others go.
 */
export function planRelationMoves<R extends MergedRelation>(
  target: string,
  from: readonly string[],
  relations: readonly R[],
): RelationMoves<R> {
  const merged = new Set(from);
  const end = (id: string) => (merged.has(id) ? target : id);
  const moved = (relation: R) =>
    merged.has(relation.sourceAssetId) || merged.has(relation.targetAssetId);
  const order = [...relations].sort(
    (a, b) =>
      Number(moved(a)) - Number(moved(b)) ||
      a.createdAt.getTime() - b.createdAt.getTime() ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  const taken = new Set<string>();
  const plan: RelationMoves<R> = { deletes: [], moves: [] };
  for (const relation of order) {
    const sourceAssetId = end(relation.sourceAssetId);
    const targetAssetId = end(relation.targetAssetId);
    const key = JSON.stringify([sourceAssetId, targetAssetId, relation.type]);
    if (!moved(relation)) {
      taken.add(key);
      continue;
    }
    if (sourceAssetId === targetAssetId || taken.has(key)) {
      plan.deletes.push(relation);
      continue;
    }
    taken.add(key);
    plan.moves.push({ relation, sourceAssetId, targetAssetId });
  }
  return plan;
}

/**
 * A diagram's content (JSON text) with each `nodes[].assetId` naming a merged asset naming
 * `target` instead, keys kept in their order; null when it names none.
 */
export function rewriteDiagramContent(
  content: string,
  target: string,
  from: readonly string[],
): string | null {
  const merged = new Set(from);
  const parsed = JSON.parse(content) as { nodes?: unknown };
  if (!Array.isArray(parsed.nodes)) return null;
  let changed = false;
  for (const node of parsed.nodes as unknown[]) {
    if (node === null || typeof node !== 'object' || Array.isArray(node)) continue;
    const named = (node as { assetId?: unknown }).assetId;
    if (typeof named === 'string' && merged.has(named)) {
      (node as { assetId: string }).assetId = target;
      changed = true;
    }
  }
  return changed ? JSON.stringify(parsed) : null;
}
