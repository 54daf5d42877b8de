import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { dayOf, noonDaysBefore, setPeriod } from '../support/finding-periods.js';
import { expectErrorBody, TestApp } from '../support/test-app.js';

const INGEST = '/api/integrations/ingest';

type Json = Record<string, any>;

/** POST /api/assets/:id/merge: one asset per real thing, the mistaken split undone. */
describe('merging assets', () => {
  let t: TestApp;
  let admin: string;
  let editor: string;
  let viewer: string;

  const ok = async (method: string, path: string, body?: unknown, token = editor) => {
    const response = await t.request(method, path, { token, body });
    if (response.status >= 300)
      throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body as Json;
  };
  const merge = (id: string, body: unknown, token = editor) =>
    t.request('POST', `/api/assets/${encodeURIComponent(id)}/merge`, { token, body });
  const status = async (id: string) =>
    (await t.request('GET', `/api/assets/${encodeURIComponent(id)}`, { token: editor })).status;
  const relationsOf = async (id: string) =>
    (await ok('GET', `/api/relations?assetId=${id}&limit=1000`)) as unknown as Json[];
  const changeCount = async () =>
    Number(
      (await t.request('GET', '/api/changes?limit=1', { token: admin })).headers.get(
        'x-total-count',
      ),
    );
  /** The summary's open counts, and the same counted from the list of open findings. */
  const openCounts = async () => {
    const summary = await ok('GET', '/api/findings/summary');
    const open = (await ok('GET', '/api/findings?status=open&limit=1000')) as Json[];
    const counted: Record<string, number> = { critical: 0, high: 0, medium: 0, low: 0, none: 0 };
    for (const finding of open) counted[finding.severity] += 1;
    expect(summary.open).toEqual(counted);
    // Counted rather than read from finding_counts: a filter they do not serve.
    expect(await ok('GET', '/api/findings/summary?minScore=0')).toEqual(summary);
    return summary.open as Record<string, number>;
  };

  beforeAll(async () => {
    t = await TestApp.start();
    admin = await t.login();
    editor = (await t.createUser('editor')).token;
    viewer = (await t.createUser('viewer')).token;
  });
  afterAll(async () => {
    await t.close();
  });

  describe('folds one asset into another', () => {
    let before: { other: Json; target: Json };
    let merged: Json;
    let requestId: string | null;
    let diagramId: string;

    beforeAll(async () => {
      // Seen first by one feed, then by another under its own id, matched by id only: two assets.
      await ok('POST', INGEST, {
        options: { source: 'scan-b', matchBy: ['id'] },
        assets: [
          {
            id: 'm-other',
            name: 'laptop (dhcp)',
            vendor: 'Other vendor',
            addresses: ['192.0.2.11', '192.0.2.10'],
            macAddresses: ['aa:bb:cc:00:00:02'],
            hostnames: ['other', 'target'],
            services: [
              { port: 22, protocol: 'tcp', name: 'openssh' },
              { port: 443, protocol: 'tcp', name: 'https' },
            ],
            vulnerabilities: [
              { id: 'CVE-2', score: 7 },
              { id: 'CVE-3', score: 4 },
            ],
          },
        ],
      });
      await ok('POST', INGEST, {
        options: { source: 'scan-a', matchBy: ['id'] },
        assets: [
          {
            id: 'm-target',
            name: 'laptop',
            addresses: ['192.0.2.10'],
            macAddresses: ['aa:bb:cc:00:00:01'],
            hostnames: ['target'],
            services: [{ port: 22, protocol: 'tcp', name: 'ssh' }],
            vulnerabilities: [
              { id: 'CVE-1', score: 9.8 },
              { id: 'CVE-2', score: 5 },
            ],
          },
          { id: 'm-peer', name: 'switch' },
        ],
      });
      const relate = (sourceAssetId: string, targetAssetId: string, type: string) =>
        ok('POST', '/api/relations', { sourceAssetId, targetAssetId, type });
      await relate('m-target', 'm-peer', 'uplink');
      await relate('m-other', 'm-peer', 'uplink'); // the same once re-pointed: one stays
      await relate('m-other', 'm-target', 'link'); // would join the target to itself: goes
      await relate('m-peer', 'm-other', 'backup'); // re-pointed
      diagramId = (
        await ok('POST', '/api/diagrams', {
          name: 'office',
          content: {
            nodes: [
              { assetId: 'm-other', x: 1, y: 2 },
              { assetId: 'm-peer', x: 3, y: 4 },
            ],
            edges: [],
          },
        })
      ).id as string;
      before = {
        other: await ok('GET', '/api/assets/m-other'),
        target: await ok('GET', '/api/assets/m-target'),
      };
      expect(await openCounts()).toEqual({ critical: 1, high: 1, medium: 2, low: 0, none: 0 });
      const response = await merge('m-target', { from: ['m-other'] });
      expect(response.status).toBe(200);
      merged = response.body as Json;
      requestId = response.headers.get('x-request-id');
    });

    it('answers the target with the lists of both, its own first, and its other fields kept', () => {
      expect(merged).toMatchObject({
        id: 'm-target',
        name: 'laptop',
        vendor: null,
        ip: '192.0.2.10',
        addresses: ['192.0.2.10', '192.0.2.11'],
        macAddresses: ['aa:bb:cc:00:00:01', 'aa:bb:cc:00:00:02'],
        hostnames: ['target', 'other'],
        services: [
          { port: 22, protocol: 'tcp', name: 'ssh' },
          { port: 443, protocol: 'tcp', name: 'https' },
        ],
        sources: ['scan-a', 'scan-b'],
        firstSeenAt: before.other.firstSeenAt,
        lastSeenAt: before.target.lastSeenAt,
        createdAt: before.target.createdAt,
      });
      expect(merged.vulnerabilities.map((v: Json) => [v.id, v.score])).toEqual([
        ['CVE-1', 9.8],
        ['CVE-2', 5],
        ['CVE-3', 4],
      ]);
    });

    it('stores what it answers, and the merged asset answers 404 from then on', async () => {
      expect(await ok('GET', '/api/assets/m-target')).toEqual(merged);
      expect(await status('m-other')).toBe(404);
      expect(
        (await ok('GET', '/api/assets?mac=aa:bb:cc:00:00:02')).assets.map((a: Json) => a.id),
      ).toEqual(['m-target']);
      expect(
        (await ok('GET', '/api/assets?cidr=192.0.2.11/32')).assets.map((a: Json) => a.id),
      ).toEqual(['m-target']);
    });

    it('keeps one finding per vulnerability: the target own, else theirs, with the widest sightings', async () => {
      const findings = (await ok('GET', '/api/assets/m-target/findings')) as Json[];
      const byVuln = new Map(findings.map((finding) => [finding.vulnId, finding]));
      expect([...byVuln.keys()].sort()).toEqual(['CVE-1', 'CVE-2', 'CVE-3']);
      expect(findings).toHaveLength(3);
      const ofOther = (await ok('GET', '/api/findings?vulnId=CVE-3')) as Json[];
      expect(ofOther.map((f) => f.assetId)).toEqual(['m-target']);
      const cve2 = byVuln.get('CVE-2')!;
      expect(cve2).toMatchObject({ score: 5, severity: 'medium', status: 'open' });
      expect(cve2.sources).toEqual(['scan-a', 'scan-b']);
      expect(Date.parse(cve2.firstSeenAt)).toBeLessThanOrEqual(
        Date.parse(before.target.firstSeenAt),
      );
      expect(cve2.firstSeenAt).toBe(byVuln.get('CVE-3')!.firstSeenAt);
      expect(byVuln.get('CVE-3')!.sources).toEqual(['scan-b']);
    });

    it('keeps the findings counts exact', async () => {
      expect(await openCounts()).toEqual({ critical: 1, high: 0, medium: 2, low: 0, none: 0 });
      expect((await ok('GET', '/api/findings?limit=1000')).length).toBe(3);
    });

    it('re-points relations, deleting the self-joining one and the repeated one', async () => {
      const relations = (await relationsOf('m-target'))
        .map((r) => `${r.sourceAssetId} ${r.type} ${r.targetAssetId}`)
        .sort();
      expect(relations).toEqual(['m-peer backup m-target', 'm-target uplink m-peer']);
      expect((await relationsOf('m-other')).length).toBe(0);
    });

    it('renames the merged asset in diagrams, the rest of the content as it was', async () => {
      expect((await ok('GET', `/api/diagrams/${diagramId}`)).content).toEqual({
        nodes: [
          { assetId: 'm-target', x: 1, y: 2 },
          { assetId: 'm-peer', x: 3, y: 4 },
        ],
        edges: [],
      });
    });

    it('records the target updated and the merged asset deleted, with the request', async () => {
      const [update] = (await ok('GET', '/api/assets/m-target/changes')) as Json[];
      expect(update).toMatchObject({ action: 'update', objectType: 'asset', objectId: 'm-target' });
      expect(update.after.hostnames).toEqual(['target', 'other']);
      expect(update.before.hostnames).toEqual(['target']);
      const [deleted] = (await ok('GET', '/api/assets/m-other/changes')) as Json[];
      expect(deleted).toMatchObject({ action: 'delete', objectType: 'asset', after: null });
      expect(deleted.before).toEqual(before.other);
      expect(deleted.requestId).toBe(update.requestId);
      if (requestId !== null) expect(update.requestId).toBe(requestId);
      const sameRequest = (await ok('GET', `/api/changes?limit=1000`, undefined, admin)) as Json[];
      const kinds = sameRequest
        .filter((change) => change.requestId === update.requestId)
        .map((change) => `${change.action} ${change.objectType}`)
        .sort();
      expect(kinds).toEqual(
        [
          'update asset',
          'delete asset',
          'delete relation',
          'delete relation',
          'update relation',
          'update diagram',
        ].sort(),
      );
    });

    it('resolves the merged id in ingestion: an item naming it updates the target', async () => {
      const run = await ok('POST', INGEST, {
        assets: [{ id: 'm-other', name: 'laptop (renamed)' }],
      });
      expect(run.stats).toMatchObject({ assetsCreated: 0, assetsUpdated: 1 });
      expect(await status('m-other')).toBe(404);
      expect((await ok('GET', '/api/assets/m-target')).name).toBe('laptop (renamed)');
      // Merged on again: the old ids follow.
      await ok('POST', '/api/assets', { name: 'spare' }).then(async (spare) => {
        expect((await merge(spare.id, { from: ['m-target'] })).status).toBe(200);
        const again = await ok('POST', INGEST, { assets: [{ id: 'm-other', name: 'final' }] });
        expect(again.stats).toMatchObject({ assetsCreated: 0, assetsUpdated: 1 });
        expect((await ok('GET', `/api/assets/${spare.id}`)).name).toBe('final');
        expect(await status('m-target')).toBe(404);
      });
    });
  });

  describe('keeps merged ids naming the asset they were merged into, in ingestion', () => {
    const relationTexts = async (id: string) =>
      (await relationsOf(id))
        .map((r) => `${r.sourceAssetId} ${r.type} ${r.targetAssetId} ${r.protocol}`)
        .sort();

    beforeAll(async () => {
      await ok('POST', INGEST, {
        assets: [
          { id: 'k-target', name: 'server' },
          { id: 'k-gone', name: 'server (old name)' },
          { id: 'k-peer', name: 'switch' },
        ],
        relations: [
          { sourceAssetId: 'k-target', targetAssetId: 'k-peer', type: 'uplink', protocol: 'tcp' },
        ],
      });
      expect((await merge('k-target', { from: ['k-gone'] })).status).toBe(200);
    });

    it('resolves a relation end naming a merged id to that asset, its stored relations matched', async () => {
      const run = await ok('POST', INGEST, {
        assets: [{ id: 'k-new', name: 'laptop' }],
        relations: [
          { sourceAssetId: 'k-new', targetAssetId: 'k-gone', type: 'link' },
          // The stored k-target uplink, named through the merged id: updated, not repeated.
          { sourceAssetId: 'k-gone', targetAssetId: 'k-peer', type: 'uplink', protocol: 'udp' },
        ],
      });
      expect(run.stats).toMatchObject({
        assetsCreated: 1,
        relationsCreated: 1,
        relationsUpdated: 1,
        relationsUnchanged: 0,
      });
      expect(await relationTexts('k-target')).toEqual([
        'k-new link k-target null',
        'k-target uplink k-peer udp',
      ]);
      expect(await status('k-gone')).toBe(404);

      // Likewise in append, and with the surviving id beside it: one asset, so a self-link.
      const appended = await ok('POST', INGEST, {
        options: { mode: 'append' },
        assets: [{ id: 'k-appended', name: 'printer' }],
        relations: [{ sourceAssetId: 'k-appended', targetAssetId: 'k-gone', type: 'print' }],
      });
      expect(appended.stats).toMatchObject({ assetsCreated: 1, relationsCreated: 1 });
      expect(await relationTexts('k-appended')).toEqual(['k-appended print k-target null']);
      const selfLink = await t.request('POST', INGEST, {
        token: editor,
        body: { relations: [{ sourceAssetId: 'k-gone', targetAssetId: 'k-target', type: 'x' }] },
      });
      expect(selfLink.status).toBe(400);
      expectErrorBody(selfLink, /relations\[0\] links an asset to itself/);
    });

    it('append: refuses an item naming a merged id as it refuses a stored one, writing nothing', async () => {
      const changes = await changeCount();
      const target = await ok('GET', '/api/assets/k-target');
      for (const id of ['k-gone', 'k-target']) {
        const response = await t.request('POST', INGEST, {
          token: editor,
          body: {
            options: { mode: 'append' },
            assets: [
              { id: 'k-fresh', name: 'fresh' },
              { id, name: 'back again' },
            ],
          },
        });
        expect(response.status).toBe(409);
        expectErrorBody(response, new RegExp(`^assets\\[1\\]\\.id ${id} already exists$`));
      }
      expect(await status('k-gone')).toBe(404);
      expect(await status('k-fresh')).toBe(404);
      expect(await ok('GET', '/api/assets/k-target')).toEqual(target);
      expect(await changeCount()).toBe(changes);
      // The asset routes take no id: none can bring a merged id back either.
      const manual = await t.request('POST', '/api/assets', {
        token: editor,
        body: { id: 'k-gone', name: 'back again' },
      });
      expect(manual.status).toBe(400);
      expectErrorBody(manual, /id/);
      expect(await status('k-gone')).toBe(404);
    });
  });

  describe("keeps the trend's past of the findings it folds", () => {
    const now = Date.now();
    const noon = (days: number) => noonDaysBefore(now, days);
    type Span = [opened: Date, closed: Date | null];
    /** The trend's entries over the last 12 days, by date. */
    const trend = async (query = '') =>
      new Map(
        (
          (await ok(
            'GET',
            `/api/findings/trend?days=12${query}`,
            undefined,
            viewer,
          )) as unknown as {
            date: string;
            open: Record<string, number>;
          }[]
        ).map((entry) => [entry.date, entry.open]),
      );
    /** How many of `spans` are open at the end of `date` (closed that day: not). */
    const openOn = (date: string, spans: Span[]) =>
      spans.filter(
        ([opened, closed]) => dayOf(opened) <= date && (closed === null || date < dayOf(closed)),
      ).length;
    /** The finding of `vulnId` on each asset, by asset id. */
    const findingsOf = async (vulnId: string) =>
      new Map(
        ((await ok('GET', `/api/findings?vulnId=${vulnId}`)) as unknown as Json[]).map(
          (finding) => [finding.assetId as string, finding],
        ),
      );
    // CVE-P1 open on both, the merged asset's since longer; CVE-P2 fixed on the target, open
    // again on the merged asset since.
    const spans: Record<string, Span> = {
      'p-target CVE-P1': [noon(3), null],
      'p-other CVE-P1': [noon(8), null],
      'p-target CVE-P2': [noon(10), noon(6)],
      'p-other CVE-P2': [noon(5), null],
    };
    let before: Map<string, Record<string, number>>;
    let mergedAt: Date;

    beforeAll(async () => {
      const vulnerabilities = [
        { id: 'CVE-P1', score: 9.5 },
        { id: 'CVE-P2', score: 8 },
      ];
      await ok('POST', INGEST, {
        options: { matchBy: ['id'] },
        assets: [
          { id: 'p-target', name: 'printer', vulnerabilities },
          { id: 'p-other', name: 'printer (wifi)', vulnerabilities },
        ],
      });
      await ok('PUT', '/api/assets/p-target', { vulnerabilities: [vulnerabilities[0]] });
      for (const vulnId of ['CVE-P1', 'CVE-P2']) {
        for (const [assetId, finding] of await findingsOf(vulnId))
          await setPeriod(t, finding.id as string, ...spans[`${assetId} ${vulnId}`]);
      }
      before = await trend();
      expect((await merge('p-target', { from: ['p-other'] })).status).toBe(200);
      mergedAt = new Date();
    });

    it('answers each past day as one finding open since the earliest of them', async () => {
      const kept = await findingsOf('CVE-P1');
      expect([...kept.keys()]).toEqual(['p-target']);
      expect(kept.get('p-target')!.status).toBe('open');
      // Counted from the periods (a filter the kept counts do not serve) and from those counts.
      const filtered = await trend('&vulnId=CVE-P1');
      const all = await trend();
      for (const [date, open] of filtered) {
        const expected = openOn(date, [spans['p-other CVE-P1']]);
        expect([date, open.critical]).toEqual([date, expected]);
        // Before, both were counted where both were open.
        const both = openOn(date, [spans['p-target CVE-P1'], spans['p-other CVE-P1']]);
        expect([date, all.get(date)!.critical]).toEqual([
          date,
          before.get(date)!.critical - both + expected,
        ]);
      }
    });

    it("ends the merged finding's open period at the merge when the target's own is fixed", async () => {
      const kept = await findingsOf('CVE-P2');
      expect([...kept.keys()]).toEqual(['p-target']);
      expect(kept.get('p-target')!.status).toBe('fixed');
      const expectedSpans: Span[] = [spans['p-target CVE-P2'], [noon(5), mergedAt]];
      for (const [date, open] of await trend('&vulnId=CVE-P2'))
        expect([date, open.high]).toEqual([date, openOn(date, expectedSpans)]);
      expect(await openCounts()).toEqual((await ok('GET', '/api/findings/summary')).open);
    });
  });

  describe('refuses, writing nothing', () => {
    beforeAll(async () => {
      await ok('POST', INGEST, {
        assets: [
          { id: 'r-a', name: 'a', vulnerabilities: [{ id: 'CVE-9', score: 9 }] },
          { id: 'r-b', name: 'b', vulnerabilities: [{ id: 'CVE-9', score: 3 }] },
        ],
      });
    });

    const unchanged = async (work: () => Promise<void>) => {
      const assets = [await ok('GET', '/api/assets/r-a'), await ok('GET', '/api/assets/r-b')];
      const changes = await changeCount();
      const counts = await openCounts();
      await work();
      expect([await ok('GET', '/api/assets/r-a'), await ok('GET', '/api/assets/r-b')]).toEqual(
        assets,
      );
      expect(await changeCount()).toBe(changes);
      expect(await openCounts()).toEqual(counts);
    };

    it('400 for a missing, empty, too long or repeating from, or one naming the asset itself', async () => {
      await unchanged(async () => {
        const cases: [unknown, RegExp][] = [
          [{}, /from/],
          [{ from: [] }, /from must be a list of 1 to 100 entries/],
          [{ from: 'r-b' }, /from/],
          [{ from: Array.from({ length: 101 }, (_, i) => `x-${i}`) }, /from/],
          [{ from: ['r-b', 'r-b'] }, /from\[1\] is listed twice/],
          [{ from: ['r-b', 7] }, /from\[1\]/],
          [{ from: ['r-a'] }, /from must not name the asset merged into \(r-a\)/],
          [{ from: ['r-b'], extra: true }, /extra/],
        ];
        for (const [body, pattern] of cases) {
          const response = await merge('r-a', body);
          expect([JSON.stringify(body), response.status]).toEqual([JSON.stringify(body), 400]);
          expectErrorBody(response, pattern);
        }
      });
    });

    it('404 for an unknown asset in the path or in from', async () => {
      await unchanged(async () => {
        const unknownPath = await merge('r-nowhere', { from: ['r-b'] });
        expect(unknownPath.status).toBe(404);
        expectErrorBody(unknownPath, /r-nowhere/);
        const unknownFrom = await merge('r-a', { from: ['r-b', 'r-nowhere'] });
        expect(unknownFrom.status).toBe(404);
        expectErrorBody(unknownFrom, /r-nowhere/);
      });
    });

    it('403 for a viewer', async () => {
      await unchanged(async () => {
        const response = await merge('r-a', { from: ['r-b'] }, viewer);
        expect(response.status).toBe(403);
        expectErrorBody(response);
      });
    });
  });
});
