import { describe, expect, it } from '@jest/globals';
import { InvalidInputError } from '../../common/errors/invalid-input.error.js';
import type { IngestMode, IngestRelation } from '../ingest-payload.js';
import type { RelationRow } from './ingest-plan.js';
import { testContext } from './plan-fixtures.js';
import { planRelations, relationKey, type RelationLookups } from './plan-relations.js';

const relation = (index: number, rest: Omit<IngestRelation, 'index'>): IngestRelation => ({
  index,
  ...rest,
});
const storedRelation: RelationRow = {
  id: 'r1',
  source_asset_id: 'a',
  target_asset_id: 'b',
  type: 'link',
  direction: 'bi',
  protocol: 'tcp',
  to_ports: '22',
};

function lookups(rest: Partial<RelationLookups> = {}): RelationLookups {
  return {
    payloadIds: new Map([
      ['a', 'a'],
      ['b', 'b'],
    ]),
    storedRefs: new Map([
      ['c', 'c'],
      ['gone', null],
      // Merged into c.
      ['old-c', 'c'],
    ]),
    storedByKey: new Map([[relationKey('a', 'b', 'link'), storedRelation]]),
    seenBefore: new Map(),
    ...rest,
  };
}

const plan = (relations: IngestRelation[], mode: IngestMode = 'merge', rest = {}) =>
  planRelations(relations, mode, lookups(rest), testContext());

describe('planRelations', () => {
  it('creates new relations between payload and stored assets, with the defaults', () => {
    const result = plan([relation(0, { sourceAssetId: 'a', targetAssetId: 'c', type: 'link' })]);
    expect(result.creates).toEqual([
      {
        id: 'new-1',
        source_asset_id: 'a',
        target_asset_id: 'c',
        type: 'link',
        direction: 'bi',
        protocol: null,
        to_ports: null,
      },
    ]);
    expect(result.counts).toEqual({
      relationsCreated: 1,
      relationsUpdated: 0,
      relationsUnchanged: 0,
    });
  });

  it('merge: updates the stored relation with the same ends and type, keeps it when equal', () => {
    const changed = plan([
      relation(0, { sourceAssetId: 'a', targetAssetId: 'b', type: 'link', toPorts: null }),
    ]);
    expect(changed.updates).toEqual([{ ...storedRelation, to_ports: null }]);
    expect(changed.updatedFrom).toEqual([storedRelation]);
    expect(changed.kept).toEqual(['r1']);
    expect(changed.counts).toEqual({
      relationsCreated: 0,
      relationsUpdated: 1,
      relationsUnchanged: 0,
    });

    const same = plan([
      relation(0, { sourceAssetId: 'a', targetAssetId: 'b', type: 'link', protocol: 'tcp' }),
    ]);
    expect(same.updates).toEqual([]);
    expect(same.creates).toEqual([]);
    expect(same.kept).toEqual(['r1']);
    expect(same.counts).toEqual({
      relationsCreated: 0,
      relationsUpdated: 0,
      relationsUnchanged: 1,
    });
  });

  it('resolves an end merged into a stored asset to that asset, matching its relations', () => {
    const storedByKey = new Map([
      [relationKey('a', 'c', 'link'), { ...storedRelation, id: 'r2', target_asset_id: 'c' }],
    ]);
    const result = plan(
      [
        relation(0, { sourceAssetId: 'old-c', targetAssetId: 'b', type: 'link' }),
        relation(1, { sourceAssetId: 'a', targetAssetId: 'old-c', type: 'link', toPorts: '22' }),
      ],
      'merge',
      { storedByKey },
    );
    expect(result.creates).toEqual([
      expect.objectContaining({ source_asset_id: 'c', target_asset_id: 'b', type: 'link' }),
    ]);
    expect(result.kept).toEqual(['r2']);
    expect(result.counts).toEqual({
      relationsCreated: 1,
      relationsUpdated: 0,
      relationsUnchanged: 1,
    });
    // The merged id and the surviving one are one asset: one key, and no relation to itself.
    expect(() =>
      plan([
        relation(0, { sourceAssetId: 'a', targetAssetId: 'c', type: 'link' }),
        relation(1, { sourceAssetId: 'a', targetAssetId: 'old-c', type: 'link' }),
      ]),
    ).toThrow(new InvalidInputError('relations[1] repeats relations[0]'));
    expect(() =>
      plan([relation(3, { sourceAssetId: 'c', targetAssetId: 'old-c', type: 'link' })]),
    ).toThrow(
      new InvalidInputError('relations[3] links an asset to itself once its ends are resolved'),
    );
  });

  it('refuses an end that names no asset', () => {
    for (const ref of ['gone', 'never-looked-up']) {
      expect(() =>
        plan([relation(4, { sourceAssetId: 'a', targetAssetId: ref, type: 'link' })]),
      ).toThrow(new InvalidInputError('relations[4].targetAssetId refers to no asset'));
    }
  });

  it('refuses a relation whose ends resolve to one asset', () => {
    const payloadIds = new Map([
      ['a', 'a'],
      ['alias', 'a'],
    ]);
    expect(() =>
      plan([relation(2, { sourceAssetId: 'a', targetAssetId: 'alias', type: 'link' })], 'merge', {
        payloadIds,
      }),
    ).toThrow(
      new InvalidInputError('relations[2] links an asset to itself once its ends are resolved'),
    );
  });

  it('merge: refuses a repeat, in one slice or across slices; append allows it', () => {
    const repeated = [
      relation(0, { sourceAssetId: 'a', targetAssetId: 'c', type: 'link' }),
      relation(1, { sourceAssetId: 'a', targetAssetId: 'c', type: 'link' }),
    ];
    const message = new InvalidInputError('relations[1] repeats relations[0]');
    expect(() => plan(repeated)).toThrow(message);
    expect(() =>
      plan([repeated[1]], 'merge', { seenBefore: new Map([[relationKey('a', 'c', 'link'), 0]]) }),
    ).toThrow(message);
    expect(plan(repeated, 'append', { storedByKey: new Map() }).creates).toHaveLength(2);
  });

  it('answers the first item of each key it saw, for the next slices', () => {
    const result = plan([relation(7, { sourceAssetId: 'b', targetAssetId: 'a', type: 'link' })]);
    expect([...result.seen]).toEqual([[relationKey('b', 'a', 'link'), 7]]);
  });

  describe('ends named by ip (a scanner route)', () => {
    // The first item with each ip resolved to these: one matched (stored), one created.
    const payloadIps = new Map([
      ['192.0.2.2', 'stored-router'],
      ['198.51.100.10', 'new-host'],
    ]);
    const route = (index: number, source: string, target: string): IngestRelation => ({
      index,
      sourceAssetId: source,
      targetAssetId: target,
      endsBy: 'ip',
      type: 'route',
      direction: 'mono',
    });
    const hop = (part: string, index: number) => `hosts[${index}].trace.hop[1] (${part})`;

    it('resolves each end to the asset the item with that ip resolved to', () => {
      const result = planRelations(
        [route(0, '192.0.2.2', '198.51.100.10')],
        'merge',
        lookups({ payloadIps }),
        testContext(),
      );
      expect(result.creates).toEqual([
        expect.objectContaining({
          source_asset_id: 'stored-router',
          target_asset_id: 'new-host',
          type: 'route',
          direction: 'mono',
        }),
      ]);
    });

    it('updates the stored route between those assets in merge', () => {
      const stored: RelationRow = {
        ...storedRelation,
        id: 'r-route',
        source_asset_id: 'stored-router',
        target_asset_id: 'new-host',
        type: 'route',
        direction: 'bi',
      };
      const result = planRelations(
        [route(0, '192.0.2.2', '198.51.100.10')],
        'merge',
        lookups({
          payloadIps,
          storedByKey: new Map([[relationKey('stored-router', 'new-host', 'route'), stored]]),
        }),
        testContext(),
      );
      expect(result.updates).toEqual([{ ...stored, direction: 'mono' }]);
      expect(result.kept).toEqual(['r-route']);
    });

    it('never takes an ip for an asset id, payload or stored', () => {
      const byId = new Map([['192.0.2.9', '192.0.2.9']]);
      expect(() =>
        planRelations(
          [route(3, '192.0.2.2', '192.0.2.9')],
          'merge',
          lookups({
            payloadIps,
            payloadIds: byId,
            storedRefs: new Map([['192.0.2.9', '192.0.2.9']]),
          }),
          { ...testContext(), itemName: hop },
        ),
      ).toThrow(
        new InvalidInputError(
          'hosts[3].trace.hop[1] (relations).targetAssetIp is the ip of no asset of the body',
        ),
      );
    });

    it("names an item by the payload's names in every refusal", () => {
      expect(() =>
        planRelations(
          [route(0, '192.0.2.2', '198.51.100.10'), route(1, '192.0.2.2', '198.51.100.10')],
          'merge',
          lookups({ payloadIps }),
          { ...testContext(), itemName: hop },
        ),
      ).toThrow(
        new InvalidInputError(
          'hosts[1].trace.hop[1] (relations) repeats hosts[0].trace.hop[1] (relations)',
        ),
      );
    });
  });
});
