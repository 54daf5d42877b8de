import { describe, expect, it } from '@jest/globals';
import {
  joinSpans,
  planFindingFolds,
  planRelationMoves,
  rewriteDiagramContent,
  union,
  type MergedFinding,
  type MergedRelation,
} from './plan-merge.js';

const day = (n: number) => new Date(Date.UTC(2026, 0, n));
/** The merge's instant, after every day above. */
const NOW = day(20);
/** An open span from day `opened` to day `closed` (null: still open). */
const span = (opened: number, closed: number | null) => ({
  openedAt: day(opened),
  closedAt: closed === null ? null : day(closed),
});

function finding(
  values: Partial<MergedFinding> & Pick<MergedFinding, 'id' | 'assetId' | 'vulnId'>,
): MergedFinding {
  return {
    status: 'open',
    firstSeenAt: day(10),
    lastSeenAt: day(10),
    periods: [],
    sources: [],
    nextPosition: 0,
    ...values,
  };
}

function relation(
  id: string,
  sourceAssetId: string,
  targetAssetId: string,
  type = 'link',
  created = 1,
): MergedRelation {
  return { id, sourceAssetId, targetAssetId, type, createdAt: day(created) };
}

describe('union', () => {
  it('keeps each value once, where it first stands', () => {
    expect(
      union(
        [
          ['a', 'b'],
          ['b', 'c'],
          ['a', 'd'],
        ],
        String,
      ),
    ).toEqual(['a', 'b', 'c', 'd']);
  });
});

describe('planFindingFolds', () => {
  it("keeps the target's own finding, with the widest sightings and the others' sources", () => {
    const folds = planFindingFolds(
      't',
      ['a'],
      [
        finding({
          id: 'f1',
          assetId: 't',
          vulnId: 'CVE-1',
          firstSeenAt: day(5),
          lastSeenAt: day(6),
          sources: ['s1'],
          nextPosition: 1,
        }),
        finding({
          id: 'f2',
          assetId: 'a',
          vulnId: 'CVE-1',
          firstSeenAt: day(2),
          lastSeenAt: day(9),
          sources: ['s2', 's1'],
          nextPosition: 2,
        }),
      ],
      NOW,
    );
    expect(folds).toEqual([
      {
        id: 'f1',
        firstSeenAt: day(2),
        lastSeenAt: day(9),
        sourceAdds: [{ source: 's2', position: 1 }],
        periods: null,
      },
    ]);
  });

  it('else the most recently seen of theirs (the first in from order on a tie), moved', () => {
    const folds = planFindingFolds(
      't',
      ['a', 'b', 'c'],
      [
        finding({ id: 'fc', assetId: 'c', vulnId: 'CVE-2', lastSeenAt: day(8) }),
        finding({
          id: 'fb',
          assetId: 'b',
          vulnId: 'CVE-2',
          lastSeenAt: day(8),
          firstSeenAt: day(1),
        }),
        finding({ id: 'fa', assetId: 'a', vulnId: 'CVE-2', lastSeenAt: day(7) }),
      ],
      NOW,
    );
    expect(folds).toEqual([
      { id: 'fb', firstSeenAt: day(1), lastSeenAt: day(8), sourceAdds: [], periods: null },
    ]);
  });

  it("leaves out a target's finding that nothing changes", () => {
    expect(
      planFindingFolds('t', ['a'], [finding({ id: 'f', assetId: 't', vulnId: 'CVE-3' })], NOW),
    ).toEqual([]);
  });

  it("joins the folded findings' open spans with the kept one's, and answers a change of spans alone", () => {
    const own = span(5, null);
    const folds = planFindingFolds(
      't',
      ['a'],
      [
        finding({ id: 'f', assetId: 't', vulnId: 'CVE-4', periods: [own] }),
        finding({ id: 'g', assetId: 'a', vulnId: 'CVE-4', periods: [span(1, 2)] }),
      ],
      NOW,
    );
    expect(folds).toEqual([
      {
        id: 'f',
        firstSeenAt: day(10),
        lastSeenAt: day(10),
        sourceAdds: [],
        periods: [span(1, 2), own],
      },
    ]);
    // Spans the kept finding's already cover change nothing.
    expect(
      planFindingFolds(
        't',
        ['a'],
        [
          finding({ id: 'f', assetId: 't', vulnId: 'CVE-4', periods: [span(6, 9), span(1, 4)] }),
          finding({ id: 'g', assetId: 'a', vulnId: 'CVE-4', periods: [span(2, 3), span(7, 9)] }),
        ],
        NOW,
      ),
    ).toEqual([]);
  });
});

describe('joinSpans', () => {
  it('joins spans that overlap or touch, oldest first; an open one runs to the end', () => {
    expect(
      joinSpans(
        { status: 'open', periods: [span(8, null), span(1, 3)] },
        [{ periods: [span(3, 4), span(6, 9)] }, { periods: [span(2, 3), span(5, 6)] }],
        NOW,
      ),
    ).toEqual([span(1, 4), span(5, null)]);
  });

  it('joins spans opened at the same instant (one period each, as the table keys them)', () => {
    expect(
      joinSpans({ status: 'open', periods: [span(3, null)] }, [{ periods: [span(3, 4)] }], NOW),
    ).toEqual([span(3, null)]);
  });

  it("keeps an accepted finding's open span open, an open folded one's start with it", () => {
    expect(
      joinSpans(
        { status: 'accepted', periods: [span(6, null)] },
        [{ periods: [span(2, null)] }],
        NOW,
      ),
    ).toEqual([span(2, null)]);
  });

  it("ends a folded finding's open span at the merge when the kept finding is not open", () => {
    for (const status of ['fixed', 'false_positive'] as const) {
      expect(
        joinSpans(
          { status, periods: [span(1, 3)] },
          [{ periods: [span(2, 4), span(7, null)] }],
          NOW,
        ),
      ).toEqual([span(1, 4), { openedAt: day(7), closedAt: NOW }]);
    }
  });

  it('answers no span for none', () => {
    expect(joinSpans({ status: 'fixed', periods: [] }, [{ periods: [] }], NOW)).toEqual([]);
  });
});

describe('planRelationMoves', () => {
  it('re-points, deletes what would join the target to itself, and keeps one of each repeat', () => {
    const own = relation('r1', 't', 'p', 'uplink', 5);
    const repeat = relation('r2', 'a', 'p', 'uplink', 1);
    const self = relation('r3', 'a', 't');
    const between = relation('r4', 'a', 'b');
    const incoming = relation('r5', 'p', 'b', 'backup');
    const twin = relation('r6', 'b', 'p', 'uplink', 2);
    const plan = planRelationMoves('t', ['a', 'b'], [own, repeat, self, between, incoming, twin]);
    expect(plan.deletes.map((r) => r.id).sort()).toEqual(['r2', 'r3', 'r4', 'r6']);
    expect(plan.moves.map((m) => [m.relation.id, m.sourceAssetId, m.targetAssetId])).toEqual([
      ['r5', 'p', 't'],
    ]);
  });

  it('keeps the earliest created of repeats none of which is the target own', () => {
    const plan = planRelationMoves(
      't',
      ['a', 'b'],
      [relation('late', 'b', 'p', 'link', 9), relation('early', 'a', 'p', 'link', 3)],
    );
    expect(plan.moves.map((m) => m.relation.id)).toEqual(['early']);
    expect(plan.deletes.map((r) => r.id)).toEqual(['late']);
  });
});

describe('rewriteDiagramContent', () => {
  it('names the target in place of merged assets, the rest as it was', () => {
    const content = JSON.stringify({
      nodes: [{ x: 1, assetId: 'a' }, { assetId: 'p' }],
      edges: [{ from: 'a' }],
    });
    expect(rewriteDiagramContent(content, 't', ['a'])).toBe(
      JSON.stringify({ nodes: [{ x: 1, assetId: 't' }, { assetId: 'p' }], edges: [{ from: 'a' }] }),
    );
  });

  it('answers null when no node names a merged asset', () => {
    expect(rewriteDiagramContent('{"nodes":[{"assetId":"p"}],"note":"a"}', 't', ['a'])).toBeNull();
    expect(rewriteDiagramContent('{}', 't', ['a'])).toBeNull();
  });
});
