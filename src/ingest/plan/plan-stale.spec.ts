import { describe, expect, it } from '@jest/globals';
import { ConflictError } from '../../common/errors/conflict.error.js';
import type { RelationRow } from './ingest-plan.js';
import {
  checkMaxDeletions,
  planStaleAssets,
  planStaleRelations,
  type StaleCandidate,
} from './plan-stale.js';

const link = (id: string, source: string, target: string): RelationRow => ({
  id,
  source_asset_id: source,
  target_asset_id: target,
  type: 'link',
  direction: 'bi',
  protocol: null,
  to_ports: null,
});
const candidate = (
  id: string,
  origin: StaleCandidate['origin'] = 'ingest',
  sourceCount = 1,
): StaleCandidate => ({ id, origin, sourceCount });

describe('planStaleAssets', () => {
  const kept = new Set(['a', 'b']);

  it('without a source: deletes every candidate the payload does not name, hand-made too', () => {
    expect(
      planStaleAssets(
        [candidate('z', 'manual', 0), candidate('a'), candidate('x', 'ingest', 3), candidate('b')],
        kept,
        null,
      ),
    ).toEqual({ deletes: ['x', 'z'], sourceRemovals: [] });
  });

  it('with a source: deletes an ingested asset left with no source, in id order', () => {
    expect(planStaleAssets([candidate('y'), candidate('a'), candidate('x')], kept, 'scan')).toEqual(
      { deletes: ['x', 'y'], sourceRemovals: [] },
    );
  });

  it('with a source: keeps an asset another feed reports, taking the source out', () => {
    expect(planStaleAssets([candidate('x', 'ingest', 2)], kept, 'scan')).toEqual({
      deletes: [],
      sourceRemovals: ['x'],
    });
  });

  it('with a source: never deletes a hand-made asset, even with no source left', () => {
    expect(
      planStaleAssets(
        [candidate('router', 'manual', 1), candidate('m', 'manual', 2)],
        kept,
        'scan',
      ),
    ).toEqual({ deletes: [], sourceRemovals: ['m', 'router'] });
  });

  it('leaves the candidates the payload names alone', () => {
    expect(planStaleAssets([candidate('a', 'manual'), candidate('b')], kept, 'scan')).toEqual({
      deletes: [],
      sourceRemovals: [],
    });
  });
});

describe('planStaleRelations', () => {
  it('answers the stored relations among the payload assets that it does not list', () => {
    const kept = new Set(['a', 'b', 'c']);
    const stored = [
      link('listed', 'a', 'b'),
      link('unlisted', 'b', 'c'),
      link('to-stale', 'a', 'x'),
      link('from-stale', 'y', 'a'),
    ];
    // Relations to stale assets go with them; whoever deletes those counts them.
    expect(planStaleRelations(kept, stored, new Set(['listed']))).toEqual([stored[1]]);
  });
});

describe('checkMaxDeletions', () => {
  it('refuses more deletions than the limit, allows as many', () => {
    expect(() => checkMaxDeletions(3, 2)).toThrow(
      new ConflictError('this ingestion would delete 3 assets, more than maxDeletions 2'),
    );
    expect(() => checkMaxDeletions(1, 0)).toThrow(ConflictError);
    expect(() => checkMaxDeletions(2, 2)).not.toThrow();
    expect(() => checkMaxDeletions(0, 0)).not.toThrow();
    expect(() => checkMaxDeletions(100_000, null)).not.toThrow();
  });
});
