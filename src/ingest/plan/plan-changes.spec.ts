import { describe, expect, it } from '@jest/globals';
import type { RelationRow } from './ingest-plan.js';
import { ChangeLog, CHANGES_PER_LIST } from './plan-changes.js';
import { item, storedAsset, testContext } from './plan-fixtures.js';
import { planCreateAll, planMerge } from './plan-assets.js';
import { planRelations, relationKey } from './plan-relations.js';

const SEEN_AT = '2026-01-02T03:04:05.678Z';

const relationRow = (id: string, rest: Partial<RelationRow> = {}): RelationRow => ({
  id,
  source_asset_id: 'a',
  target_asset_id: 'b',
  type: 'link',
  direction: 'bi',
  protocol: null,
  to_ports: null,
  ...rest,
});

describe('ChangeLog', () => {
  it('lists created and updated assets in payload order, with the fields that changed', () => {
    const a = storedAsset('a', { name: 'A', ip: '10.0.0.1', source: 'old', seen: 0 });
    const b = storedAsset('b', { name: 'B', source: 'scan', seen: 1 });
    const plan = planMerge(
      [
        item(0, { id: 'a', fields: { ip: '10.0.0.2', risk_score: null }, vulnerabilities: [] }),
        item(1, { id: 'n', fields: { name: 'new' } }),
        item(2, {
          id: 'b',
          fields: {},
          vulnerabilities: [
            { id: 'CVE-2', score: 1, summary: null, publishedDate: null },
            { id: 'CVE-1', score: 2, summary: 's', publishedDate: '2024-01-01' },
          ],
        }),
      ],
      {
        byId: new Map([
          ['a', a],
          ['b', b],
        ]),
        byIdentifier: new Map(),
        createdRank: new Map(),
        findingsAsListed: new Set(),
        sourceHolders: new Set(),
        findings: new Map([
          [
            'a',
            [
              {
                id: 'finding-9',
                assetId: 'a',
                vulnId: 'CVE-9',
                score: 9,
                summary: null,
                publishedDate: '2020-02-02',
                status: 'open' as const,
                // Reported by the run's feed alone: not listed, it is fixed.
                sources: ['scan'],
                nextPosition: 1,
                fixedAt: null,
                reopenedAt: null,
                reopenCount: 0,
                acceptedUntil: null,
              },
            ],
          ],
        ]),
        services: new Map(),
        sources: new Map([
          ['a', { names: ['old'], next: 1 }],
          ['b', { names: ['scan'], next: 1 }],
        ]),
      },
      new Map(),
      testContext('scan'),
    );
    const log = new ChangeLog('scan', SEEN_AT);
    log.addAssets(plan);
    const changes = log.result();
    expect(changes.assets.created).toEqual([{ id: 'n', name: 'new' }]);
    expect(changes.assets.updated).toEqual([
      {
        id: 'a',
        name: 'A',
        fields: {
          ip: ['10.0.0.1', '10.0.0.2'],
          // The ip is the first address: it replaces it.
          addresses: [['10.0.0.1'], ['10.0.0.2']],
          source: ['old', 'scan'],
          sources: [['old'], ['old', 'scan']],
          firstSeenAt: [null, SEEN_AT],
          vulnerabilities: [
            [{ id: 'CVE-9', score: 9, summary: null, publishedDate: '2020-02-02' }],
            [],
          ],
        },
      },
      {
        id: 'b',
        name: 'B',
        fields: {
          // Shown in id order, as the API shows them.
          vulnerabilities: [
            [],
            [
              { id: 'CVE-1', score: 2, summary: 's', publishedDate: '2024-01-01' },
              { id: 'CVE-2', score: 1, summary: null, publishedDate: null },
            ],
          ],
        },
      },
    ]);
    expect(changes.truncated).toBe(false);
  });

  it('shows a replaced service list before and after, each in port then protocol order', () => {
    const a = storedAsset('a', { name: 'A' });
    const http = { port: 80, protocol: 'tcp' as const, name: 'http', product: null, version: null };
    const plan = planMerge(
      [
        item(0, {
          id: 'a',
          fields: {},
          services: [{ ...http, port: 443 }, { ...http, protocol: 'udp' }, http],
        }),
      ],
      {
        byId: new Map([['a', a]]),
        byIdentifier: new Map(),
        createdRank: new Map(),
        findingsAsListed: new Set(),
        sourceHolders: new Set(),
        findings: new Map(),
        services: new Map([
          [
            'a',
            [
              { asset_id: 'a', ...http, version: '2.4' },
              { asset_id: 'a', ...http, port: 22, name: 'ssh' },
            ],
          ],
        ]),
        sources: new Map(),
      },
      new Map(),
      testContext(),
    );
    const log = new ChangeLog(null, SEEN_AT);
    log.addAssets(plan);
    expect(log.result().assets.updated).toEqual([
      {
        id: 'a',
        name: 'A',
        fields: {
          services: [
            [
              { ...http, port: 22, name: 'ssh' },
              { ...http, version: '2.4' },
            ],
            [http, { ...http, protocol: 'udp' }, { ...http, port: 443 }],
          ],
        },
      },
    ]);
  });

  it('lists created and updated relations, the updated with their fields', () => {
    const stored = relationRow('r1', { protocol: 'tcp', to_ports: '22' });
    const plan = planRelations(
      [
        { index: 0, sourceAssetId: 'a', targetAssetId: 'b', type: 'link', toPorts: '22,443' },
        { index: 1, sourceAssetId: 'b', targetAssetId: 'a', type: 'link', direction: 'mono' },
      ],
      'merge',
      {
        payloadIds: new Map([
          ['a', 'a'],
          ['b', 'b'],
        ]),
        storedRefs: new Map(),
        storedByKey: new Map([[relationKey('a', 'b', 'link'), stored]]),
        seenBefore: new Map(),
      },
      testContext(),
    );
    const log = new ChangeLog(null, SEEN_AT);
    log.addRelations(plan);
    const { relations } = log.result();
    expect(relations.created).toEqual([
      { id: 'new-1', sourceAssetId: 'b', targetAssetId: 'a', type: 'link' },
    ]);
    expect(relations.updated).toEqual([
      {
        id: 'r1',
        sourceAssetId: 'a',
        targetAssetId: 'b',
        type: 'link',
        fields: { toPorts: ['22', '22,443'] },
      },
    ]);
  });

  it('adds the assets deleteStale keeps after the payload’s updates, their source taken out', () => {
    const log = new ChangeLog('scan', SEEN_AT);
    log.addSourceRemovals([{ id: 'router', name: 'router', sources: ['scan', 'cmdb'] }], 1);
    expect(log.result().assets.updated).toEqual([
      { id: 'router', name: 'router', fields: { sources: [['scan', 'cmdb'], ['cmdb']] } },
    ]);
  });

  it('keeps at most 100 entries per list, marking the answer truncated', () => {
    const items = Array.from({ length: CHANGES_PER_LIST + 5 }, (_, i) =>
      item(i, { id: `id-${i}`, fields: { name: `n${i}` } }),
    );
    const log = new ChangeLog(null, SEEN_AT);
    log.addAssets(planCreateAll(items.slice(0, 60), new Set(), testContext()));
    log.addAssets(planCreateAll(items.slice(60), new Set(), testContext()));
    const changes = log.result();
    expect(changes.assets.created).toHaveLength(CHANGES_PER_LIST);
    expect(changes.assets.created[99]).toEqual({ id: 'id-99', name: 'n99' });
    expect(changes.truncated).toBe(true);
  });

  it('takes the deleted lists whole; cut when more were deleted than shown', () => {
    const shown = Array.from({ length: CHANGES_PER_LIST }, (_, i) => ({ id: `d${i}`, name: 'x' }));
    const exact = new ChangeLog(null, SEEN_AT);
    exact.setDeleted(shown, CHANGES_PER_LIST, [], 0);
    expect(exact.result().assets.deleted).toHaveLength(CHANGES_PER_LIST);
    expect(exact.result().truncated).toBe(false);

    const cut = new ChangeLog(null, SEEN_AT);
    cut.setDeleted([...shown, { id: 'd100', name: 'x' }], 250, [], 0);
    expect(cut.result().assets.deleted).toHaveLength(CHANGES_PER_LIST);
    expect(cut.result().truncated).toBe(true);
  });
});
