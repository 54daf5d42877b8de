import { addressKey } from '../../common/field-rules/identity-values.js';
import { describe, expect, it } from '@jest/globals';
import type { ServiceRow } from '../../database/tables/services.table.js';
import type { PlannedFinding } from '../../database/repositories/findings/finding-stored-rows.js';
import { ConflictError } from '../../common/errors/conflict.error.js';
import { InvalidInputError } from '../../common/errors/invalid-input.error.js';
import type { IngestService, IngestVulnerability } from '../ingest-payload.js';
import type { StoredAsset, StoredSources } from './ingest-plan.js';
import { item, storedAsset, testContext } from './plan-fixtures.js';
import {
  findingsAsListedKey,
  planCreateAll,
  planMerge,
  type AssetUpdate,
  type StoredAssets,
} from './plan-assets.js';

const vulnerability: IngestVulnerability = {
  id: 'CVE-1',
  score: 5,
  summary: 'x',
  publishedDate: '2024-01-02',
};
const storedFinding = (assetId: string): PlannedFinding => ({
  id: `finding-${assetId}`,
  assetId,
  vulnId: 'CVE-1',
  score: 5,
  summary: 'x',
  publishedDate: '2024-01-02',
  status: 'open',
  sources: [],
  nextPosition: 0,
  fixedAt: null,
  reopenedAt: null,
  reopenCount: 0,
  acceptedUntil: null,
});

const ssh: IngestService = {
  port: 22,
  protocol: 'tcp',
  name: 'ssh',
  product: 'OpenSSH',
  version: '9.6',
};
const dns: IngestService = { port: 53, protocol: 'udp', name: null, product: null, version: null };
const serviceRow = (assetId: string, service: IngestService): ServiceRow => ({
  asset_id: assetId,
  ...service,
});

function stored(
  rows: StoredAsset[],
  byIp: StoredAsset[] = [],
  findings: [string, PlannedFinding[]][] = [],
  sources: [string, StoredSources][] = [],
  services: [string, ServiceRow[]][] = [],
  findingsAsListed: string[] = [],
): StoredAssets {
  return {
    byId: new Map(rows.map((row) => [row.id, row])),
    // As the lookups find them: by the key of their ip, in the order given (of creation).
    byIdentifier: byIp.reduce((holders, row) => {
      const key = `ip ${addressKey(row.ip!)}`;
      return holders.set(key, [...(holders.get(key) ?? []), row]);
    }, new Map<string, StoredAsset[]>()),
    createdRank: new Map(byIp.map((row, rank) => [row.id, rank])),
    findingsAsListed: new Set(findingsAsListed),
    sourceHolders: new Set(),
    findings: new Map(findings),
    services: new Map(services),
    sources: new Map(sources),
  };
}

const counts = (
  assetsCreated: number,
  assetsUpdated: number,
  assetsUnchanged: number,
  vulnerabilities: number,
  findingsOpened = 0,
) => ({
  assetsCreated,
  assetsUpdated,
  assetsUnchanged,
  vulnerabilities,
  findingsOpened,
  findingsReopened: 0,
  findingsFixed: 0,
});

/** The stored row as the writer takes it (without what only the plan reads). */
const row = ({ seen: _seen, ...rest }: StoredAsset) => rest;

/** The update of a stored asset whose fields and provenance stay, with `changes`. */
const listUpdate = (before: StoredAsset, changes: Partial<AssetUpdate>): AssetUpdate => ({
  before,
  after: row(before),
  sourcesBefore: null,
  firstSeen: false,
  vulnerabilitiesBefore: null,
  servicesBefore: null,
  ...changes,
});

describe('planMerge', () => {
  it('updates the asset matched by id with the given fields and the source', () => {
    const a = storedAsset('a', { ip: '10.0.0.1', site: 'lab' });
    const plan = planMerge(
      [item(0, { id: 'a', fields: { name: 'A' } })],
      stored([a]),
      new Map(),
      testContext(),
    );
    expect(plan.updates).toEqual([
      {
        before: a,
        after: { ...row(a), name: 'A' },
        sourcesBefore: null,
        firstSeen: false,
        vulnerabilitiesBefore: null,
        servicesBefore: null,
      },
    ]);
    expect(plan.creates).toEqual([]);
    expect(plan.ids).toEqual(['a']);
    expect([...plan.matched]).toEqual([['a', 0]]);
    expect(plan.counts).toEqual(counts(0, 1, 0, 0));
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
    expect(plan.updates.map((update) => update.after)).toEqual([{ ...row(early), vendor: 'v' }]);
  });

  it('matchBy id: an item whose id is not stored is created, never matched by ip', () => {
    const early = storedAsset('early', { ip: '10.0.0.9' });
    const plan = planMerge(
      [item(0, { id: 'unknown', fields: { name: 'n', ip: '10.0.0.9' } })],
      stored([], [early]),
      new Map(),
      testContext(null, { keys: [], site: null }),
    );
    expect(plan.ids).toEqual(['unknown']);
    expect(plan.creates.map((created) => created.id)).toEqual(['unknown']);
    expect(plan.updates).toEqual([]);
    expect(plan.matched.size).toBe(0);
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
      { ...row(storedAsset('new-1', { name: 'n', ip: '10.0.0.2' })), source: 'scan' },
      { ...row(storedAsset('given', { name: 'g' })), source: 'scan' },
    ]);
    expect(plan.ids).toEqual(['new-1', 'given']);
    expect([...plan.vulnerabilityLists]).toEqual([['new-1', [vulnerability]]]);
    expect(plan.findingPlans.get('new-1')?.creates).toEqual([
      { id: 'new-2', values: vulnerability },
    ]);
    expect(plan.sourceAdds).toEqual([]);
    expect(plan.counts).toEqual(counts(2, 0, 0, 1, 1));
  });

  it('refuses to create an asset without a name', () => {
    expect(() =>
      planMerge([item(3, { fields: { ip: '10.0.0.3' } })], stored([]), new Map(), testContext()),
    ).toThrow(new InvalidInputError('assets[3].name is required to create an asset'));
  });

  it('counts an item equal to the stored asset as unchanged, its vulnerabilities included', () => {
    const a = storedAsset('a', { name: 'A', source: 'scan', seen: 1 });
    const plan = planMerge(
      [item(0, { id: 'a', fields: { name: 'A' }, vulnerabilities: [vulnerability] })],
      stored([a], [], [['a', [storedFinding('a')]]], [['a', { names: ['scan'], next: 1 }]]),
      new Map(),
      testContext('scan'),
    );
    expect(plan.updates).toEqual([]);
    expect(plan.unchanged).toEqual(['a']);
    expect(plan.sourceAdds).toEqual([]);
    expect(plan.vulnerabilityLists.size).toBe(0);
    // Seen again, and reported by the feed from now on: no asset change.
    expect(plan.findingPlans.get('a')).toMatchObject({
      seen: ['finding-a'],
      changes: [],
      sourceAdds: [['finding-a', 0]],
    });
    expect(plan.counts).toEqual(counts(0, 0, 1, 0));
  });

  it('replaces a different vulnerability list, which counts as an update of the asset', () => {
    const a = storedAsset('a', { name: 'A' });
    const changed = { ...vulnerability, score: 9 };
    const plan = planMerge(
      [item(0, { id: 'a', fields: {}, vulnerabilities: [changed] })],
      stored([a], [], [['a', [storedFinding('a')]]]),
      new Map(),
      testContext(),
    );
    expect(plan.updates).toEqual([listUpdate(a, { vulnerabilitiesBefore: [vulnerability] })]);
    expect([...plan.vulnerabilityLists]).toEqual([['a', [changed]]]);
    expect(plan.counts).toEqual(counts(0, 1, 0, 1));
  });

  describe('a list the database found as stored (findingsAsListed)', () => {
    const a = storedAsset('a', { name: 'A', source: 'scan', seen: 1 });
    const sources: [string, StoredSources][] = [['a', { names: ['scan'], next: 1 }]];

    it('plans no finding of it: only the sighting, found by the database; unchanged', () => {
      const plan = planMerge(
        [item(0, { id: 'a', fields: { name: 'A' }, vulnerabilities: [vulnerability] })],
        stored([a], [], [], sources, [], [findingsAsListedKey(0, 'a')]),
        new Map(),
        testContext('scan'),
      );
      expect(plan.findingsSeenAsListed).toEqual(['a']);
      expect(plan.findingPlans.size).toBe(0);
      expect(plan.unchanged).toEqual(['a']);
      expect(plan.counts).toEqual(counts(0, 0, 1, 0));
    });

    it('still updates the asset when another field changes', () => {
      const plan = planMerge(
        [item(0, { id: 'a', fields: { name: 'B' }, vulnerabilities: [vulnerability] })],
        stored([a], [], [], sources, [], [findingsAsListedKey(0, 'a')]),
        new Map(),
        testContext('scan'),
      );
      expect(plan.findingsSeenAsListed).toEqual(['a']);
      expect(plan.updates).toEqual([listUpdate(a, { after: { ...row(a), name: 'B' } })]);
      expect(plan.vulnerabilityLists.size).toBe(0);
    });

    it('plans against the stored findings the item whose key it is not (another item)', () => {
      const plan = planMerge(
        [item(1, { id: 'a', fields: { name: 'A' }, vulnerabilities: [vulnerability] })],
        stored([a], [], [['a', [storedFinding('a')]]], sources, [], [findingsAsListedKey(0, 'a')]),
        new Map(),
        testContext('scan'),
      );
      expect(plan.findingsSeenAsListed).toEqual([]);
      expect(plan.findingPlans.get('a')).toMatchObject({ seen: ['finding-a'], changes: [] });
    });
  });

  describe('services', () => {
    const a = storedAsset('a', { name: 'A' });
    const storedServices: [string, ServiceRow[]][] = [
      ['a', [serviceRow('a', ssh), serviceRow('a', dns)]],
    ];

    it('counts the same list in another order as unchanged, writing no service', () => {
      const plan = planMerge(
        [item(0, { id: 'a', fields: { name: 'A' }, services: [dns, ssh] })],
        stored([a], [], [], [], storedServices),
        new Map(),
        testContext(),
      );
      expect(plan.unchanged).toEqual(['a']);
      expect(plan.updates).toEqual([]);
      expect(plan.serviceLists.size).toBe(0);
      expect(plan.replacedServiceLists).toEqual([]);
      expect(plan.counts).toEqual(counts(0, 0, 1, 0));
    });

    it('keeps the stored list when the item has none', () => {
      const plan = planMerge(
        [item(0, { id: 'a', fields: {} })],
        stored([a], [], [], [], storedServices),
        new Map(),
        testContext(),
      );
      expect(plan.unchanged).toEqual(['a']);
      expect(plan.serviceLists.size).toBe(0);
      expect(plan.replacedServiceLists).toEqual([]);
    });

    it.each([
      ['a changed version', [{ ...ssh, version: '9.7' }, dns]],
      ['a changed name', [ssh, { ...dns, name: 'domain' }]],
      ['another protocol on the same port', [ssh, { ...dns, protocol: 'tcp' as const }]],
      ['one fewer', [ssh]],
      ['one more', [ssh, dns, { ...ssh, port: 2222 }]],
      ['an empty list', []],
    ])('replaces the list given %s: an update of the asset', (_case, given) => {
      const plan = planMerge(
        [item(0, { id: 'a', fields: {}, services: given })],
        stored([a], [], [], [], storedServices),
        new Map(),
        testContext(),
      );
      expect(plan.updates).toEqual([listUpdate(a, { servicesBefore: storedServices[0][1] })]);
      expect([...plan.serviceLists]).toEqual([['a', given]]);
      expect(plan.replacedServiceLists).toEqual(['a']);
      // Services are no vulnerability records.
      expect(plan.counts).toEqual(counts(0, 1, 0, 0));
    });

    it('gives a list to an asset that had none, and to a created one', () => {
      const plan = planMerge(
        [
          item(0, { id: 'a', fields: {}, services: [ssh] }),
          item(1, { fields: { name: 'n' }, services: [dns] }),
        ],
        stored([a]),
        new Map(),
        testContext(),
      );
      expect(plan.updates.map((update) => update.servicesBefore)).toEqual([[]]);
      expect([...plan.serviceLists]).toEqual([
        ['a', [ssh]],
        ['new-1', [dns]],
      ]);
      // Only a stored list is deleted before the insert.
      expect(plan.replacedServiceLists).toEqual(['a']);
    });
  });

  it('keeps updates in payload order, a vulnerability-only change included', () => {
    const a = storedAsset('a');
    const b = storedAsset('b');
    const plan = planMerge(
      [
        item(0, { id: 'a', fields: {}, vulnerabilities: [vulnerability] }),
        item(1, { id: 'b', fields: { name: 'B' } }),
      ],
      stored([a, b]),
      new Map(),
      testContext(),
    );
    expect(plan.updates.map((update) => update.after.id)).toEqual(['a', 'b']);
  });

  describe('provenance, with a source', () => {
    it('adds the source after the last of a matched asset’s sources: an update', () => {
      const a = storedAsset('a', { name: 'A', source: 'other', seen: 1 });
      const plan = planMerge(
        [item(0, { id: 'a', fields: {} })],
        stored([a], [], [], [['a', { names: ['first', 'other'], next: 5 }]]),
        new Map(),
        testContext('scan'),
      );
      expect(plan.sourceAdds).toEqual([['a', 5]]);
      expect(plan.updates).toEqual([
        {
          before: a,
          after: { ...row(a), source: 'scan' },
          sourcesBefore: ['first', 'other'],
          firstSeen: false,
          vulnerabilitiesBefore: null,
          servicesBefore: null,
        },
      ]);
      expect(plan.counts.assetsUpdated).toBe(1);
    });

    it('a hand-made asset first named by a feed: source at position 0, first sighting', () => {
      const router = storedAsset('router', { ip: '10.0.0.1' });
      const plan = planMerge(
        [item(0, { fields: { ip: '10.0.0.1' } })],
        stored([], [router]),
        new Map(),
        testContext('scan'),
      );
      expect(plan.sourceAdds).toEqual([['router', 0]]);
      expect(plan.updates[0]).toMatchObject({ sourcesBefore: [], firstSeen: true });
    });

    it('leaves an asset unchanged when it already holds the source and was seen', () => {
      const a = storedAsset('a', { source: 'scan', seen: 1 });
      const plan = planMerge(
        [item(0, { id: 'a', fields: { name: 'a' } })],
        stored([a], [], [], [['a', { names: ['scan', 'other'], next: 2 }]]),
        new Map(),
        testContext('scan'),
      );
      expect(plan.unchanged).toEqual(['a']);
      expect(plan.updates).toEqual([]);
      expect(plan.sourceAdds).toEqual([]);
    });

    it('an asset whose sources the lookups found holding the source: unchanged, none read', () => {
      const a = storedAsset('a', { name: 'A', source: 'scan', seen: 1 });
      const plan = planMerge(
        [item(0, { id: 'a', fields: { name: 'A' } })],
        { ...stored([a]), sourceHolders: new Set(['a']) },
        new Map(),
        testContext('scan'),
      );
      expect(plan.sourceAdds).toEqual([]);
      expect(plan.unchanged).toEqual(['a']);
    });

    it('without a source, touches no provenance: the same item is unchanged', () => {
      const a = storedAsset('a', { source: 'scan' });
      const plan = planMerge(
        [item(0, { id: 'a', fields: {} })],
        stored([a]),
        new Map(),
        testContext(),
      );
      expect(plan.unchanged).toEqual(['a']);
      expect(plan.sourceAdds).toEqual([]);
    });
  });

  it('refuses an item whose id names the asset an earlier item matched by ip', () => {
    const a = storedAsset('a', { ip: '10.0.0.1' });
    expect(() =>
      planMerge(
        [item(1, { id: 'a', fields: {} })],
        stored([a]),
        new Map([['a', 0]]),
        testContext(),
      ),
    ).toThrow(new InvalidInputError('assets[1] matches the same stored asset (a) as assets[0]'));
  });

  it('an ip held by several assets: each item takes the earliest created no other item takes', () => {
    const a = storedAsset('a', { ip: '10.0.0.1' });
    const b = storedAsset('b', { ip: '10.0.0.1' });
    const byIp = (index: number) => item(index, { fields: { name: `n${index}`, ip: '10.0.0.1' } });
    const three = planMerge(
      [byIp(0), byIp(1), byIp(2)],
      stored([], [a, b]),
      new Map(),
      testContext(),
    );
    expect(three.ids).toEqual(['a', 'b', 'new-1']);
    expect(three.counts).toEqual(counts(1, 2, 0, 0));
    // Neither the asset a later item of the slice names by id, nor one an earlier slice matched.
    const named = planMerge(
      [byIp(0), item(1, { id: 'a', fields: {} })],
      stored([a], [a, b]),
      new Map(),
      testContext(),
    );
    expect(named.ids).toEqual(['b', 'a']);
    const later = planMerge([byIp(1)], stored([], [a, b]), new Map([['a', 0]]), testContext());
    expect(later.ids).toEqual(['b']);
  });

  it("names items by the payload's names (a scanner's hosts)", () => {
    const a = storedAsset('a', { ip: '10.0.0.1' });
    const hosts = (_part: string, index: number) => `hosts[${index * 2}]`;
    expect(() =>
      planMerge([item(1, { id: 'a', fields: {} })], stored([a]), new Map([['a', 0]]), {
        ...testContext(),
        itemName: hosts,
      }),
    ).toThrow(new InvalidInputError('hosts[2] matches the same stored asset (a) as hosts[0]'));
    expect(() =>
      planMerge([item(3, { fields: { ip: '10.0.0.2' } })], stored([], []), new Map(), {
        ...testContext(),
        itemName: hosts,
      }),
    ).toThrow(new InvalidInputError('hosts[6].name is required to create an asset'));
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
    ).toThrow(new ConflictError('assets[1].id a already exists'));
  });

  it('append and replace: creates every item with its vulnerabilities and services', () => {
    const plan = planCreateAll(
      [
        item(0, {
          id: 'a',
          fields: { name: 'A', risk_score: 4 },
          vulnerabilities: [vulnerability],
        }),
        item(1, { fields: { name: 'B' }, services: [ssh] }),
      ],
      new Set(),
      testContext('scan'),
    );
    // new-1: the finding of a's vulnerability.
    expect(plan.findingPlans.get('a')?.creates).toEqual([{ id: 'new-1', values: vulnerability }]);
    expect([...plan.serviceLists]).toEqual([['new-2', [ssh]]]);
    expect(plan.replacedServiceLists).toEqual([]);
    expect(plan.creates).toEqual([
      { ...row(storedAsset('a', { name: 'A', risk_score: 4 })), source: 'scan' },
      { ...row(storedAsset('new-2', { name: 'B' })), source: 'scan' },
    ]);
    expect(plan.ids).toEqual(['a', 'new-2']);
    expect(plan.updates).toEqual([]);
    expect(plan.matched.size).toBe(0);
    expect(plan.counts).toEqual(counts(2, 0, 0, 1, 1));
  });
});
