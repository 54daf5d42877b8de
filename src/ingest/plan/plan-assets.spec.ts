import { describe, expect, it } from '@jest/globals';
import { BadRequestException, ConflictException } from '@nestjs/common';
import type { AssetRow, VulnerabilityRow } from '../../assets/asset-rows.js';
import type { IngestVulnerability } from '../ingest-payload.js';
import { item, storedAsset, testContext } from './plan-fixtures.js';
import { planCreateAll, planMerge, type StoredAssets } from './plan-assets.js';

const vulnerability: IngestVulnerability = {
  id: 'CVE-1',
  score: 5,
  summary: 'x',
  publishedDate: '2024-01-02',
};
const vulnerabilityRow = (assetId: string): VulnerabilityRow => ({
  asset_id: assetId,
  id: 'CVE-1',
  score: 5,
  summary: 'x',
  published_date: '2024-01-02',
});

function stored(
  rows: AssetRow[],
  byIp: AssetRow[] = [],
  vulnerabilities: [string, VulnerabilityRow[]][] = [],
): StoredAssets {
  return {
    byId: new Map(rows.map((row) => [row.id, row])),
    byIp: new Map(byIp.map((row) => [row.ip!, row])),
    vulnerabilities: new Map(vulnerabilities),
  };
}

describe('planMerge', () => {
  it('updates the asset matched by id with the given fields and the source', () => {
    const a = storedAsset('a', { ip: '10.0.0.1', site: 'lab' });
    const plan = planMerge(
      [item(0, { id: 'a', fields: { name: 'A' } })],
      stored([a]),
      new Map(),
      testContext('scan'),
    );
    expect(plan.updates).toEqual([{ ...a, name: 'A', source: 'scan' }]);
    expect(plan.creates).toEqual([]);
    expect(plan.ids).toEqual(['a']);
    expect([...plan.matched]).toEqual([['a', 0]]);
    expect(plan.counts).toEqual({ assetsCreated: 0, assetsUpdated: 1, vulnerabilities: 0 });
  });

  it('matches by ip the stored asset the lookups give for it (the earliest created)', () => {
    const early = storedAsset('early', { ip: '10.0.0.9' });
    const plan = planMerge(
      [item(0, { id: 'unknown', fields: { ip: '10.0.0.9', vendor: 'v' } })],
      stored([], [early]),
      new Map(),
      testContext(),
    );
    expect(plan.ids).toEqual(['early']);
    expect(plan.updates).toEqual([{ ...early, vendor: 'v' }]);
  });

  it('creates what matches nothing, with a new id when the item has none', () => {
    const plan = planMerge(
      [
        item(0, { fields: { name: 'n', ip: '10.0.0.2' }, vulnerabilities: [vulnerability] }),
        item(1, { id: 'given', fields: { name: 'g' } }),
      ],
      stored([]),
      new Map(),
      testContext('scan'),
    );
    expect(plan.creates).toEqual([
      { ...storedAsset('new-1', { name: 'n', ip: '10.0.0.2' }), source: 'scan' },
      { ...storedAsset('given', { name: 'g' }), source: 'scan' },
    ]);
    expect(plan.ids).toEqual(['new-1', 'given']);
    expect([...plan.vulnerabilityLists]).toEqual([['new-1', [vulnerability]]]);
    expect(plan.replacedLists).toEqual([]);
    expect(plan.counts).toEqual({ assetsCreated: 2, assetsUpdated: 0, vulnerabilities: 1 });
  });

  it('refuses to create an asset without a name', () => {
    expect(() =>
      planMerge([item(3, { fields: { ip: '10.0.0.3' } })], stored([]), new Map(), testContext()),
    ).toThrow(new BadRequestException('assets[3].name is required to create an asset'));
  });

  it('writes nothing for an item equal to the stored asset, its vulnerabilities included', () => {
    const a = storedAsset('a', { name: 'A', source: 'scan' });
    const plan = planMerge(
      [item(0, { id: 'a', fields: { name: 'A' }, vulnerabilities: [vulnerability] })],
      stored([a], [], [['a', [vulnerabilityRow('a')]]]),
      new Map(),
      testContext('scan'),
    );
    expect(plan.updates).toEqual([]);
    expect(plan.vulnerabilityLists.size).toBe(0);
    expect(plan.replacedLists).toEqual([]);
    expect(plan.counts).toEqual({ assetsCreated: 0, assetsUpdated: 0, vulnerabilities: 0 });
  });

  it('replaces a different vulnerability list, which counts as an update of the asset', () => {
    const a = storedAsset('a', { name: 'A' });
    const changed = { ...vulnerability, score: 9 };
    const plan = planMerge(
      [item(0, { id: 'a', fields: {}, vulnerabilities: [changed] })],
      stored([a], [], [['a', [vulnerabilityRow('a')]]]),
      new Map(),
      testContext(),
    );
    expect(plan.updates).toEqual([a]);
    expect(plan.replacedLists).toEqual(['a']);
    expect([...plan.vulnerabilityLists]).toEqual([['a', [changed]]]);
    expect(plan.counts).toEqual({ assetsCreated: 0, assetsUpdated: 1, vulnerabilities: 1 });
  });

  it('refuses two items matching one stored asset, in one slice or across slices', () => {
    const a = storedAsset('a', { ip: '10.0.0.1' });
    const message = 'assets[1] matches the same stored asset (a) as assets[0]';
    expect(() =>
      planMerge(
        [item(0, { id: 'a', fields: {} }), item(1, { fields: { ip: '10.0.0.1' } })],
        stored([a], [a]),
        new Map(),
        testContext(),
      ),
    ).toThrow(new BadRequestException(message));
    expect(() =>
      planMerge(
        [item(1, { fields: { ip: '10.0.0.1' } })],
        stored([], [a]),
        new Map([['a', 0]]),
        testContext(),
      ),
    ).toThrow(new BadRequestException(message));
  });
});

describe('planCreateAll', () => {
  it('append: refuses an id already stored', () => {
    expect(() =>
      planCreateAll(
        [item(0, { id: 'free', fields: { name: 'f' } }), item(1, { id: 'a', fields: {} })],
        new Set(['a']),
        testContext(),
      ),
    ).toThrow(new ConflictException('assets[1].id a already exists'));
  });

  it('append and replace: creates every item with its vulnerabilities', () => {
    const plan = planCreateAll(
      [
        item(0, {
          id: 'a',
          fields: { name: 'A', risk_score: 4 },
          vulnerabilities: [vulnerability],
        }),
        item(1, { fields: { name: 'B' } }),
      ],
      new Set(),
      testContext('scan'),
    );
    expect(plan.creates).toEqual([
      { ...storedAsset('a', { name: 'A', risk_score: 4 }), source: 'scan' },
      { ...storedAsset('new-1', { name: 'B' }), source: 'scan' },
    ]);
    expect(plan.ids).toEqual(['a', 'new-1']);
    expect(plan.updates).toEqual([]);
    expect(plan.matched.size).toBe(0);
    expect(plan.counts).toEqual({ assetsCreated: 2, assetsUpdated: 0, vulnerabilities: 1 });
  });
});
