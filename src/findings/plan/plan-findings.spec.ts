import { describe, expect, it } from '@jest/globals';
import type { FindingStatus } from '../../common/field-rules/finding-values.js';
import {
  planFindings,
  sameListed,
  type ListedVulnerability,
  type StoredFinding,
} from './plan-findings.js';

const listed = (id: string, score: number | null = 5): ListedVulnerability => ({
  id,
  score,
  summary: null,
  publishedDate: null,
});

const stored = (
  vulnId: string,
  status: FindingStatus,
  sources: string[] = [],
  score: number | null = 5,
): StoredFinding => ({
  id: `f-${vulnId}`,
  vulnId,
  score,
  summary: null,
  publishedDate: null,
  status,
  sources,
  nextPosition: sources.length,
});

let next = 0;
const newId = () => `new-${++next}`;

describe('planFindings', () => {
  it('opens a finding for each vulnerability listed for the first time, in list order', () => {
    next = 0;
    const plan = planFindings([], [listed('CVE-2'), listed('CVE-1')], 'scan', newId);
    expect(plan.creates).toEqual([
      { id: 'new-1', values: listed('CVE-2') },
      { id: 'new-2', values: listed('CVE-1') },
    ]);
    expect(plan.opened).toEqual(['CVE-2', 'CVE-1']);
    expect(plan.shown).toEqual({ before: [], after: [listed('CVE-2'), listed('CVE-1')] });
    expect(plan.changes).toEqual([]);
  });

  it('reopens a fixed finding listed again, and the feed joins its sources', () => {
    const fixed = stored('CVE-1', 'fixed');
    const plan = planFindings([fixed], [listed('CVE-1')], 'scan', newId);
    expect(plan.changes).toEqual([{ stored: fixed, values: null, status: 'open' }]);
    expect(plan.reopened).toEqual(['CVE-1']);
    expect(plan.seen).toEqual(['f-CVE-1']);
    expect(plan.sourceAdds).toEqual([['f-CVE-1', 0]]);
    expect(plan.shown).toEqual({ before: [], after: [listed('CVE-1')] });
  });

  it.each<FindingStatus>(['open', 'accepted', 'false_positive'])(
    'keeps the status of a listed %s finding; its sighting moves and new values are taken',
    (status) => {
      const finding = stored('CVE-1', status, ['scan']);
      const plan = planFindings([finding], [listed('CVE-1', 9.8)], 'scan', newId);
      expect(plan.changes).toEqual([
        { stored: finding, values: listed('CVE-1', 9.8), status: null },
      ]);
      expect(plan.seen).toEqual(['f-CVE-1']);
      expect(plan.sourceAdds).toEqual([]);
      expect(plan.opened).toEqual([]);
      expect(plan.reopened).toEqual([]);
      expect(plan.fixed).toEqual([]);
    },
  );

  it('changes nothing but the sighting of a finding listed with the same values', () => {
    const plan = planFindings(
      [stored('CVE-1', 'open', ['scan'])],
      [listed('CVE-1')],
      'scan',
      newId,
    );
    expect(plan.changes).toEqual([]);
    expect(plan.seen).toEqual(['f-CVE-1']);
    expect(plan.shown).toBeNull();
  });

  it('without a source, fixes every open or accepted finding not listed', () => {
    const open = stored('CVE-1', 'open', ['scan']);
    const accepted = stored('CVE-2', 'accepted');
    const plan = planFindings(
      [open, accepted, stored('CVE-3', 'false_positive'), stored('CVE-4', 'fixed')],
      [],
      null,
      newId,
    );
    expect(plan.changes).toEqual([
      { stored: open, values: null, status: 'fixed' },
      { stored: accepted, values: null, status: 'fixed' },
    ]);
    expect(plan.fixed).toEqual(['CVE-1', 'CVE-2']);
    expect(plan.sourceRemovals).toEqual([]);
    expect(plan.shown?.before.map((entry) => entry.id)).toEqual(['CVE-1', 'CVE-2']);
    expect(plan.shown?.after).toEqual([]);
  });

  it('with a source, fixes only what that feed alone reported', () => {
    const alone = stored('CVE-1', 'open', ['scan']);
    const shared = stored('CVE-2', 'open', ['scan', 'other']);
    const byHand = stored('CVE-3', 'open');
    const another = stored('CVE-4', 'accepted', ['other']);
    const plan = planFindings([alone, shared, byHand, another], [], 'scan', newId);
    expect(plan.fixed).toEqual(['CVE-1']);
    expect(plan.changes).toEqual([{ stored: alone, values: null, status: 'fixed' }]);
    // The feed leaves what it reported; what another feed still reports stays, as does what
    // was entered by hand.
    expect(plan.sourceRemovals).toEqual(['f-CVE-1', 'f-CVE-2']);
    expect(plan.shown?.after.map((entry) => entry.id)).toEqual(['CVE-2', 'CVE-3', 'CVE-4']);
  });

  it('never changes the status of a false positive, listed or not', () => {
    const judged = stored('CVE-1', 'false_positive', ['scan']);
    expect(planFindings([judged], [], 'scan', newId).changes).toEqual([]);
    expect(planFindings([judged], [], null, newId).changes).toEqual([]);
    const listedAgain = planFindings([judged], [listed('CVE-1')], 'scan', newId);
    expect(listedAgain.changes).toEqual([]);
    expect(listedAgain.seen).toEqual(['f-CVE-1']);
    // Not among the asset's vulnerabilities, before or after.
    expect(listedAgain.shown).toBeNull();
  });
});

describe('sameListed', () => {
  it('compares lists as sets of values', () => {
    expect(sameListed([listed('a'), listed('b')], [listed('b'), listed('a')])).toBe(true);
    expect(sameListed([listed('a')], [listed('a', 6)])).toBe(false);
    expect(sameListed([listed('a')], [listed('a'), listed('b')])).toBe(false);
  });
});
