import { describe, expect, it } from '@jest/globals';
import type { RelationRow } from './ingest-plan.js';
import { planStale } from './plan-stale.js';

const link = (id: string, source: string, target: string): RelationRow => ({
  id,
  source_asset_id: source,
  target_asset_id: target,
  type: 'link',
  direction: 'bi',
  protocol: null,
  to_ports: null,
});

describe('planStale', () => {
  const kept = new Set(['a', 'b', 'c']);
  const storedRelations = [
    link('listed', 'a', 'b'),
    link('unlisted', 'b', 'c'),
    link('to-stale', 'a', 'x'),
    link('from-stale', 'y', 'a'),
  ];

  it('deletes the candidates the payload does not name, and unlisted relations among its assets', () => {
    // Without a source, every stored asset is a candidate.
    expect(
      planStale(['a', 'b', 'c', 'x', 'y'], kept, storedRelations, new Set(['listed'])),
    ).toEqual({
      assets: ['x', 'y'],
      // Relations to stale assets go with them; the database counts those.
      relations: ['unlisted'],
    });
  });

  it('with a source, deletes only the candidates last written by it', () => {
    // 'y' was written by another source: the lookups do not give it as a candidate.
    expect(planStale(['a', 'x'], kept, storedRelations, new Set(['listed', 'unlisted']))).toEqual({
      assets: ['x'],
      relations: [],
    });
  });
});
