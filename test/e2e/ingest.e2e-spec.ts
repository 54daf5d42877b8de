import { describe, expect, it } from '@jest/globals';
import { useIngestionApp } from '../support/ingest-helpers.js';
import { TestApp } from '../support/test-app.js';

interface Stats {
  assetsCreated: number;
  assetsUpdated: number;
  assetsUnchanged: number;
  assetsDeleted: number;
  relationsCreated: number;
  relationsUpdated: number;
  relationsUnchanged: number;
  relationsDeleted: number;
  vulnerabilities: number;
  findingsOpened: number;
  findingsReopened: number;
  findingsFixed: number;
}

const NO_CHANGE: Stats = {
  assetsCreated: 0,
  assetsUpdated: 0,
  assetsUnchanged: 0,
  assetsDeleted: 0,
  relationsCreated: 0,
  relationsUpdated: 0,
  relationsUnchanged: 0,
  relationsDeleted: 0,
  vulnerabilities: 0,
  findingsOpened: 0,
  findingsReopened: 0,
  findingsFixed: 0,
};

describe('ingestion semantics', () => {
  let t: TestApp;
  let admin: string;
  let editor: string;

  const ingest = async (body: object, token = editor) => {
    const response = await t.request('POST', '/api/integrations/ingest', { token, body });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ success: true, dryRun: false });
    expect(response.body.runId).toMatch(/^[0-9a-f-]{36}$/);
    expect(Object.keys(response.body.changes)).toEqual([
      'assets',
      'relations',
      'findings',
      'truncated',
    ]);
    const { duration, ...stats } = response.body.stats;
    expect(duration).toMatch(/^\d+ms$/);
    return stats as Stats;
  };
  const assets = async () => {
    const response = await t.request('GET', '/api/assets?limit=1000&sort=name', { token: editor });
    return response.body.assets as Record<string, any>[];
  };
  const byName = async () => new Map((await assets()).map((a) => [a.name as string, a]));
  const relations = async () =>
    (await t.request('GET', '/api/relations', { token: editor })).body as Record<string, any>[];
  /**
   * Everything stored, timestamps included: what "unchanged" is checked against (but the last
   * sighting, which a run with a source moves on every asset it names).
   */
  const snapshot = async () => ({
    assets: (await assets()).map(({ lastSeenAt: _moves, ...asset }) => asset),
    relations: await relations(),
  });

  useIngestionApp((app) => ({ t, admin, editor } = app), { emptyEach: true });

  const scan = {
    options: { mode: 'merge', source: 'nmap-dmz' },
    assets: [
      {
        id: 'ext-fw',
        name: 'fw',
        ip: '10.0.0.1',
        type: 'firewall',
        vulnerabilities: [
          { id: 'CVE-2024-0001', score: 9.8, summary: 'rce', publishedDate: '2024-01-02' },
          { id: 'CVE-2024-0002', score: 4 },
        ],
      },
      { id: 'ext-web', name: 'web', ip: '10.0.0.2', type: 'server', risk_score: 30 },
      { name: 'printer', ip: '10.0.0.3' },
    ],
    relations: [
      { sourceAssetId: 'ext-web', targetAssetId: 'ext-fw', type: 'route', toPorts: '443' },
      { sourceAssetId: 'ext-fw', targetAssetId: 'ext-web', type: 'nat', direction: 'mono' },
    ],
  };

  describe('merge', () => {
    it('matches an ip listed twice one to one, so that a repeated run changes nothing', async () => {
      const twice = [
        { name: 'first', ip: '10.8.0.9' },
        { name: 'second', ip: '10.8.0.9' },
      ];
      expect(await ingest({ assets: twice })).toMatchObject({ assetsCreated: 2 });
      const stored = await snapshot();
      expect(await ingest({ assets: twice })).toMatchObject({
        assetsCreated: 0,
        assetsUpdated: 0,
        assetsUnchanged: 2,
      });
      expect(await snapshot()).toEqual(stored);
      // A third holder of the ip is new: both stored ones are taken by the items before it.
      const thrice = [...twice, { name: 'third', ip: '10.8.0.9' }];
      expect(await ingest({ assets: thrice })).toMatchObject({
        assetsCreated: 1,
        assetsUnchanged: 2,
      });
    });

    it('creates into an empty store, with exact stats', async () => {
      expect(await ingest(scan)).toEqual({
        ...NO_CHANGE,
        assetsCreated: 3,
        relationsCreated: 2,
        findingsOpened: 2,
        vulnerabilities: 2,
      });
      const stored = await byName();
      expect(stored.get('fw')).toMatchObject({
        id: 'ext-fw',
        ip: '10.0.0.1',
        type: 'firewall',
        source: 'nmap-dmz',
        vulnerabilities: [
          { id: 'CVE-2024-0001', score: 9.8, summary: 'rce', publishedDate: '2024-01-02' },
          { id: 'CVE-2024-0002', score: 4, summary: null, publishedDate: null },
        ],
      });
      expect(stored.get('printer')!.id).toMatch(/^[0-9a-f-]{36}$/);
      const links = await relations();
      expect(links).toHaveLength(2);
      expect(links.find((r) => r.type === 'route')).toMatchObject({
        sourceAssetId: 'ext-web',
        targetAssetId: 'ext-fw',
        direction: 'bi',
        toPorts: '443',
      });
      expect(links.find((r) => r.type === 'nat')).toMatchObject({ direction: 'mono' });
    });

    it('is idempotent: the same payload again changes nothing', async () => {
      await ingest(scan);
      const before = await snapshot();
      // The printer has no id: matched by its ip the second time.
      expect(await ingest(scan)).toEqual({
        ...NO_CHANGE,
        assetsUnchanged: 3,
        relationsUnchanged: 2,
      });
      expect(await snapshot()).toEqual(before);
    });

    it('matches by ip, keeping the stored id, and updates only the fields given', async () => {
      const created = await t.request('POST', '/api/assets', {
        token: editor,
        body: { name: 'switch', ip: '10.9.9.9', vendor: 'Cisco', model: 'C9300', site: 'paris' },
      });
      const stats = await ingest({
        assets: [{ id: 'scanner-42', ip: '10.9.9.9', os_version: 'IOS 17', model: null }],
      });
      expect(stats).toEqual({ ...NO_CHANGE, assetsUpdated: 1 });
      const stored = await assets();
      expect(stored).toHaveLength(1);
      expect(stored[0]).toMatchObject({
        id: created.body.id,
        name: 'switch',
        ip: '10.9.9.9',
        vendor: 'Cisco',
        model: null,
        site: 'paris',
        os_version: 'IOS 17',
        source: null,
        createdAt: created.body.createdAt,
      });
      expect(stored[0].updatedAt > created.body.updatedAt).toBe(true);
    });

    it('matches the earliest created asset when several share the ip', async () => {
      await t.request('POST', '/api/assets', {
        token: editor,
        body: { name: 'created first', ip: '10.5.5.5' },
      });
      const second = await t.request('POST', '/api/assets', {
        token: editor,
        body: { name: 'created second', ip: '10.5.5.5' },
      });
      // Dated back before the first: "earliest" goes by creation time, not by the (later) id.
      await t.seed(() =>
        t.dataSource.query(
          `UPDATE assets SET created_at = '2000-01-01 00:00:00.000' WHERE name = 'created second'`,
        ),
      );
      await ingest({ assets: [{ ip: '10.5.5.5', vendor: 'HP' }] });
      const stored = await byName();
      expect(stored.get('created second')).toMatchObject({ id: second.body.id, vendor: 'HP' });
      expect(stored.get('created first')!.vendor).toBeNull();
    });

    it('matches by id before ip', async () => {
      await ingest({
        assets: [
          { id: 'a', name: 'by-id', ip: '10.1.1.1' },
          { id: 'b', name: 'by-ip', ip: '10.1.1.2' },
        ],
      });
      expect(await ingest({ assets: [{ id: 'a', ip: '10.1.1.2', name: 'renamed' }] })).toEqual({
        ...NO_CHANGE,
        assetsUpdated: 1,
      });
      const stored = await byName();
      expect(stored.get('renamed')).toMatchObject({ id: 'a', ip: '10.1.1.2' });
      expect(stored.get('by-ip')).toMatchObject({ id: 'b', ip: '10.1.1.2' });
    });

    it('replaces the vulnerability list when given, keeps it when absent', async () => {
      await ingest(scan);
      expect(
        await ingest({
          assets: [{ id: 'ext-fw', vulnerabilities: [{ id: 'CVE-2025-9999', score: 5.5 }] }],
        }),
      ).toEqual({
        ...NO_CHANGE,
        assetsUpdated: 1,
        vulnerabilities: 1,
        findingsOpened: 1,
        findingsFixed: 2,
      });
      expect((await byName()).get('fw')!.vulnerabilities).toEqual([
        { id: 'CVE-2025-9999', score: 5.5, summary: null, publishedDate: null },
      ]);
      await ingest({ assets: [{ id: 'ext-fw', risk_score: 80 }] });
      expect((await byName()).get('fw')!.vulnerabilities).toHaveLength(1);
      await ingest({ assets: [{ id: 'ext-fw', vulnerabilities: [] }] });
      expect((await byName()).get('fw')!.vulnerabilities).toEqual([]);
    });

    it('updates a relation matched on (source, target, type), leaving absent fields', async () => {
      await ingest(scan);
      const before = (await relations()).find((r) => r.type === 'route')!;
      expect(
        await ingest({
          relations: [
            { sourceAssetId: 'ext-web', targetAssetId: 'ext-fw', type: 'route', protocol: 'tcp' },
          ],
        }),
      ).toEqual({ ...NO_CHANGE, relationsUpdated: 1 });
      const after = (await relations()).find((r) => r.type === 'route')!;
      expect(after).toMatchObject({
        id: before.id,
        protocol: 'tcp',
        toPorts: '443',
        direction: 'bi',
      });
    });

    it('links stored assets by their ids, and payload assets by the ids written in it', async () => {
      const stored = await t.request('POST', '/api/assets', {
        token: editor,
        body: { name: 'db' },
      });
      expect(
        await ingest({
          assets: [{ id: 'app-1', name: 'app' }],
          relations: [{ sourceAssetId: 'app-1', targetAssetId: stored.body.id, type: 'sql' }],
        }),
      ).toEqual({ ...NO_CHANGE, assetsCreated: 1, relationsCreated: 1 });
      expect(await relations()).toEqual([
        expect.objectContaining({
          sourceAssetId: 'app-1',
          targetAssetId: stored.body.id,
          type: 'sql',
        }),
      ]);
    });

    it('resolves a payload id matched by ip to the stored id in relations', async () => {
      const stored = await t.request('POST', '/api/assets', {
        token: editor,
        body: { name: 'router', ip: '10.7.7.7' },
      });
      await ingest({
        assets: [
          { id: 'scan-router', ip: '10.7.7.7' },
          { id: 'scan-host', name: 'host' },
        ],
        relations: [{ sourceAssetId: 'scan-host', targetAssetId: 'scan-router', type: 'gw' }],
      });
      expect((await relations())[0]).toMatchObject({
        sourceAssetId: 'scan-host',
        targetAssetId: stored.body.id,
      });
    });

    it('leaves diagrams alone', async () => {
      await t.request('POST', '/api/diagrams', { token: editor, body: { name: 'kept' } });
      await ingest(scan);
      await ingest({ options: { mode: 'replace' } }, admin);
      const diagrams = await t.request('GET', '/api/diagrams', { token: editor });
      expect(diagrams.body.map((d: any) => d.name)).toEqual(['kept']);
    });
  });

  describe('deleteStale', () => {
    beforeEach(async () => {
      await ingest(scan);
      await ingest({
        options: { source: 'nmap-lan' },
        assets: [{ id: 'lan-1', name: 'lan host' }],
        relations: [{ sourceAssetId: 'lan-1', targetAssetId: 'ext-web', type: 'http' }],
      });
      await t.request('POST', '/api/assets', { token: editor, body: { name: 'hand-made' } });
    });

    it('with source: deletes only that source’s assets the payload leaves out', async () => {
      const stats = await ingest({
        options: { source: 'nmap-dmz', deleteStale: true },
        assets: [{ id: 'ext-web' }, { id: 'ext-fw' }],
      });
      // The printer goes; both dmz relations are among payload assets and unlisted: they go.
      expect(stats).toEqual({
        ...NO_CHANGE,
        assetsUnchanged: 2,
        assetsDeleted: 1,
        relationsDeleted: 2,
      });
      expect([...(await byName()).keys()].sort()).toEqual(['fw', 'hand-made', 'lan host', 'web']);
      expect((await relations()).map((r) => r.type)).toEqual(['http']);
    });

    it('without source (admin): deletes every stored asset the payload leaves out', async () => {
      const stats = await ingest(
        {
          options: { deleteStale: true },
          assets: [{ id: 'ext-web' }, { id: 'ext-fw' }],
          relations: [{ sourceAssetId: 'ext-web', targetAssetId: 'ext-fw', type: 'route' }],
        },
        admin,
      );
      // printer, lan host and hand-made go, with the http relation; nat is unlisted.
      expect(stats).toEqual({
        ...NO_CHANGE,
        assetsUnchanged: 2,
        assetsDeleted: 3,
        relationsUnchanged: 1,
        relationsDeleted: 2,
      });
      expect([...(await byName()).keys()].sort()).toEqual(['fw', 'web']);
      expect((await relations()).map((r) => r.type)).toEqual(['route']);
    });
  });

  describe('append', () => {
    it('creates every item, matching none', async () => {
      await ingest(scan);
      expect(
        await ingest({ options: { mode: 'append' }, assets: [{ name: 'fw', ip: '10.0.0.1' }] }),
      ).toEqual({ ...NO_CHANGE, assetsCreated: 1 });
      expect((await assets()).filter((a) => a.ip === '10.0.0.1')).toHaveLength(2);
    });
  });

  describe('replace', () => {
    it('deletes the stored inventory, then creates the payload', async () => {
      await ingest(scan);
      await t.request('POST', '/api/assets', { token: editor, body: { name: 'hand-made' } });
      const stats = await ingest(
        {
          options: { mode: 'replace' },
          assets: [
            { id: 'ext-fw', name: 'new-fw', vulnerabilities: [{ id: 'CVE-1' }] },
            { id: 'x', name: 'x' },
          ],
          relations: [{ sourceAssetId: 'x', targetAssetId: 'ext-fw', type: 'link' }],
        },
        admin,
      );
      expect(stats).toEqual({
        ...NO_CHANGE,
        assetsCreated: 2,
        assetsDeleted: 4,
        findingsOpened: 1,
        relationsCreated: 1,
        relationsDeleted: 2,
        vulnerabilities: 1,
      });
      expect([...(await byName()).keys()].sort()).toEqual(['new-fw', 'x']);
      expect((await byName()).get('new-fw')!.vulnerabilities).toHaveLength(1);
    });
  });

  describe('a payload read and written in slices (2,000 items each)', () => {
    const many = (count: number, ip: (i: number) => string) =>
      Array.from({ length: count }, (_, i) => ({ id: `s-${i}`, name: `s ${i}`, ip: ip(i) }));

    it('matches no item with an asset an earlier item of the same payload created', async () => {
      // Items 0 and 4,500 share an address no stored asset has: both are created.
      const items = many(5000, (i) => `10.9.${i >> 8}.${i & 255}`);
      items[4500].ip = items[0].ip;
      expect(await ingest({ assets: items })).toMatchObject({ assetsCreated: 5000 });
      // Stored now: the earliest created of the two is the one an address match finds.
      const byIp = await ingest({ assets: [{ name: 'renamed', ip: items[0].ip }] });
      expect(byIp).toMatchObject({ assetsCreated: 0, assetsUpdated: 1 });
    }, 60_000);

    it('refuses an item naming by id the asset an earlier slice matched by ip', async () => {
      await ingest({ assets: [{ id: 'stored', name: 'stored', ip: '10.8.0.1' }] });
      const items = many(4000, (i) => `10.7.${i >> 8}.${i & 255}`);
      items[0] = { id: 'other', name: 'other', ip: '10.8.0.1' };
      items[3500] = { id: 'stored', name: 'stored', ip: '10.8.0.2' };
      const response = await t.request('POST', '/api/integrations/ingest', {
        token: editor,
        body: { assets: items },
      });
      expect(response.status).toBe(400);
      expect(response.body.error).toBe(
        'assets[3500] matches the same stored asset (stored) as assets[0]',
      );
      expect((await assets()).map((a) => a.id)).toEqual(['stored']);
    }, 60_000);

    it('writes nothing when a relation fails after thousands of assets were written', async () => {
      const items = many(6000, (i) => `10.6.${i >> 8}.${i & 255}`);
      const response = await t.request('POST', '/api/integrations/ingest', {
        token: editor,
        body: {
          assets: items,
          relations: [
            { sourceAssetId: 's-0', targetAssetId: 's-1', type: 'link' },
            { sourceAssetId: 's-0', targetAssetId: 'nowhere', type: 'link' },
          ],
        },
      });
      expect(response.status).toBe(400);
      expect(response.body.error).toBe('relations[1].targetAssetId refers to no asset');
      expect(await assets()).toEqual([]);
      expect(await relations()).toEqual([]);
    }, 60_000);

    const chain = (count: number): Record<string, string>[] =>
      Array.from({ length: count }, (_, i) => ({
        sourceAssetId: `s-${i}`,
        targetAssetId: `s-${i + 1}`,
        type: 'link',
      }));

    it('matches the stored relation of stored assets a late slice of relations first names', async () => {
      await ingest({
        assets: [
          { id: 'hub-a', name: 'hub a' },
          { id: 'hub-b', name: 'hub b' },
        ],
        relations: [
          { sourceAssetId: 'hub-a', targetAssetId: 'hub-b', type: 'link', protocol: 'tcp' },
        ],
      });
      const links = chain(4500);
      // In the third slice; neither end is a payload id.
      links[4200] = {
        sourceAssetId: 'hub-a',
        targetAssetId: 'hub-b',
        type: 'link',
        protocol: 'udp',
      };
      const stats = await ingest({
        assets: many(4501, (i) => `10.5.${i >> 8}.${i & 255}`),
        relations: links,
      });
      expect(stats).toEqual({
        ...NO_CHANGE,
        assetsCreated: 4501,
        relationsCreated: 4499,
        relationsUpdated: 1,
      });
      const hubLinks = (await relations()).filter((r) => r.sourceAssetId === 'hub-a');
      expect(hubLinks).toEqual([
        expect.objectContaining({ targetAssetId: 'hub-b', protocol: 'udp' }),
      ]);
    }, 60_000);

    // On SQLite, a load into an empty store drops the indexes until its commit (SqliteWriter).
    it('leaves every index of the store as it was, after a load into it empty, or a failed one', async () => {
      const indexes = () =>
        t.dataSource.query(
          t.dataSource.options.type === 'postgres'
            ? 'SELECT indexname AS name, indexdef AS sql FROM pg_indexes WHERE schemaname = current_schema() ORDER BY indexname'
            : "SELECT name, sql FROM sqlite_master WHERE type = 'index' ORDER BY name",
        );
      const before = await indexes();
      expect(before).toContainEqual(
        expect.objectContaining({ name: 'IDX_add30790adcab8cab8f6a231e2' }),
      );
      const body = {
        assets: many(4501, (i) => `10.3.${i >> 8}.${i & 255}`),
        relations: chain(4500),
      };
      expect(await ingest(body)).toMatchObject({ assetsCreated: 4501, relationsCreated: 4500 });
      expect(await indexes()).toEqual(before);

      await ingest({ options: { mode: 'replace' } }, admin);
      body.relations[4499] = { sourceAssetId: 's-0', targetAssetId: 'nowhere', type: 'link' };
      const response = await t.request('POST', '/api/integrations/ingest', { token: editor, body });
      expect(response.status).toBe(400);
      expect(await indexes()).toEqual(before);
      expect(await assets()).toEqual([]);
    }, 60_000);

    it('refuses a relation repeated slices apart, and writes nothing', async () => {
      const links = chain(4500);
      links[4010] = { ...links[10] };
      const response = await t.request('POST', '/api/integrations/ingest', {
        token: editor,
        body: { assets: many(4501, (i) => `10.4.${i >> 8}.${i & 255}`), relations: links },
      });
      expect(response.status).toBe(400);
      expect(response.body.error).toBe('relations[4010] repeats relations[10]');
      expect(await assets()).toEqual([]);
      expect(await relations()).toEqual([]);
    }, 60_000);
  });

  describe('a hub asset', () => {
    it('with 150,000 stored relations is merged again (they were once spread into push())', async () => {
      // More rows than a call takes as arguments: one lookup brings back all of them.
      const hub = {
        options: { mode: 'merge' },
        assets: [
          { id: 'core', name: 'core' },
          { id: 'edge', name: 'edge' },
        ],
        relations: Array.from({ length: 150_000 }, (_, i) => ({
          sourceAssetId: 'core',
          targetAssetId: 'edge',
          type: `l${i}`,
        })),
      };
      expect(await ingest(hub)).toMatchObject({ assetsCreated: 2, relationsCreated: 150_000 });
      expect(await ingest(hub)).toEqual({
        ...NO_CHANGE,
        assetsUnchanged: 2,
        relationsUnchanged: 150_000,
      });
    }, 120_000);
  });
});
