import { describe, expect, it } from '@jest/globals';
import {
  compareReached,
  hopsById,
  nearestFirst,
  oldestFirst,
  pickWalk,
  type PathStepRow,
} from './graph-walks.js';

const step = (relation_id: string, from_id: string, to_id: string, hops: number | string) =>
  ({ relation_id, from_id, to_id, hops }) satisfies PathStepRow;

describe('nearestFirst', () => {
  it('orders by hops, then by id in byte order', () => {
    const hops = hopsById([
      { id: 'b', hops: '1' },
      { id: 'start', hops: 0 },
      { id: 'B', hops: 1 },
      { id: 'a', hops: 2 },
    ]);
    expect(nearestFirst(hops)).toEqual(['start', 'B', 'b', 'a']);
  });
});

describe('pickWalk', () => {
  it('follows the steps from start to end, the smallest relation id at each fork', () => {
    const steps = [
      step('r9', 'a', 'c', 0),
      step('r2', 'a', 'b', 0),
      step('r5', 'b', 'd', 1),
      step('r1', 'c', 'd', '1'),
    ];
    expect(pickWalk(steps, 'a', 'd')).toEqual({
      assetIds: ['a', 'b', 'd'],
      relationIds: ['r2', 'r5'],
    });
  });

  it('takes only the step at the hop count reached', () => {
    // r1 leaves b as if it were two hops away: not a step of this walk.
    const steps = [step('r3', 'a', 'b', 0), step('r1', 'b', 'a', 2), step('r4', 'b', 'c', 1)];
    expect(pickWalk(steps, 'a', 'c')?.relationIds).toEqual(['r3', 'r4']);
  });

  it('is null when the steps do not reach the end', () => {
    expect(pickWalk([], 'a', 'b')).toBeNull();
    expect(pickWalk([step('r1', 'a', 'b', 0)], 'a', 'c')).toBeNull();
  });
});

describe('compareReached', () => {
  const reached = (id: string, risk_score: number | null, hops: number) => ({
    asset: { id, risk_score },
    hops,
  });

  it('puts the riskiest first, the unscored last, then the nearest, then by id', () => {
    const list = [
      reached('none-near', null, 1),
      reached('low', 0, 1),
      reached('high-far', 90, 3),
      reached('none-far', null, 4),
      reached('high-near-b', 90, 1),
      reached('high-near-a', 90, 1),
    ];
    expect(list.sort(compareReached).map((item) => item.asset.id)).toEqual([
      'high-near-a',
      'high-near-b',
      'high-far',
      'low',
      'none-near',
      'none-far',
    ]);
  });
});

describe('oldestFirst', () => {
  it('orders by creation time, then by id', () => {
    const at = (id: string, iso: string) => ({ id, createdAt: new Date(iso) });
    const list = [
      at('b', '2026-01-01T00:00:00.001Z'),
      at('c', '2026-01-01T00:00:00.000Z'),
      at('a', '2026-01-01T00:00:00.001Z'),
    ];
    expect(list.sort(oldestFirst).map((item) => item.id)).toEqual(['c', 'a', 'b']);
  });
});
