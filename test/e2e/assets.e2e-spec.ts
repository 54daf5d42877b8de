import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AssetSource } from '../../src/database/entities/asset-source.entity.js';
import { Asset } from '../../src/database/entities/asset.entity.js';
import { randomUUID } from 'node:crypto';
import { severityOf } from '../../src/common/field-rules/finding-values.js';
import { Finding } from '../../src/database/entities/finding.entity.js';
import { Relation } from '../../src/database/entities/relation.entity.js';
import { RelationDirection } from '../../src/common/field-rules/inventory-values.js';
import { expectErrorBody, TestApp } from '../support/test-app.js';
import { fewestQueries } from '../support/query-count.js';

const ASSET_KEYS = [
  'addresses',
  'createdAt',
  'firstSeenAt',
  'hostnames',
  'id',
  'ip',
  'lastSeenAt',
  'macAddresses',
  'model',
  'name',
  'origin',
  'os_version',
  'risk_score',
  'services',
  'site',
  'source',
  'sources',
  'tags',
  'type',
  'updatedAt',
  'vendor',
  'vulnerabilities',
];

/** What an asset made through the API shows of its provenance. */
const MANUAL = { origin: 'manual', sources: [], firstSeenAt: null, lastSeenAt: null };

/**
 * Gives a stored asset the provenance an ingestion writes, straight into the database (feeds
 * listed in the order they first reported it).
 */
async function markIngested(
  t: TestApp,
  id: string,
  sources: string[],
  seen = {
    first: new Date('2026-01-02T03:04:05.678Z'),
    last: new Date('2026-02-03T04:05:06.789Z'),
  },
): Promise<void> {
  await t.seed(() =>
    t.dataSource
      .getRepository(Asset)
      .update(id, { origin: 'ingest', firstSeenAt: seen.first, lastSeenAt: seen.last }),
  );
  // Inserted last position first: the answer's order is the positions', not the rows'.
  const rows = sources.map((source, position) => ({ assetId: id, source, position }));
  if (rows.length > 0)
    await t.seed(() => t.dataSource.getRepository(AssetSource).insert(rows.reverse()));
}

describe('assets', () => {
  let t: TestApp;
  let admin: string;
  let editor: string;
  let viewer: string;

  const create = async (body: object, token = editor) => {
    const response = await t.request('POST', '/api/assets', { token, body });
    expect(response.status).toBe(201);
    return response.body as Record<string, any>;
  };
  const total = async () =>
    (await t.request('GET', '/api/assets?limit=1', { token: viewer })).body.total as number;

  beforeAll(async () => {
    t = await TestApp.start();
    admin = await t.login();
    editor = (await t.createUser('editor')).token;
    viewer = (await t.createUser('viewer')).token;
  });
  afterAll(async () => {
    await t.close();
  });

  describe('POST /api/assets', () => {
    it('creates an asset with every field, answering 201 and the asset', async () => {
      const body = {
        name: 'core-switch-1',
        ip: '10.0.0.1',
        type: 'switch',
        vendor: 'Cisco',
        model: 'C9300',
        risk_score: 42,
        site: 'paris',
        os_version: 'IOS-XE 17.9',
        services: [
          { port: 161, protocol: 'udp' },
          { port: 22, protocol: 'tcp', name: 'ssh', product: 'OpenSSH', version: '9.6' },
        ],
      };
      const created = await create(body);
      expect(Object.keys(created).sort()).toEqual(ASSET_KEYS);
      expect(created).toEqual({
        ...body,
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        addresses: ['10.0.0.1'],
        macAddresses: [],
        hostnames: [],
        tags: [],
        source: null,
        vulnerabilities: [],
        // In port order, absent values null.
        services: [
          { port: 22, protocol: 'tcp', name: 'ssh', product: 'OpenSSH', version: '9.6' },
          { port: 161, protocol: 'udp', name: null, product: null, version: null },
        ],
        ...MANUAL,
        createdAt: expect.any(String),
        updatedAt: created.createdAt,
      });
      expect(new Date(created.createdAt).toISOString()).toBe(created.createdAt);
      const fetched = await t.request('GET', `/api/assets/${created.id}`, { token: viewer });
      expect(fetched.status).toBe(200);
      expect(fetched.body).toEqual(created);
    });

    it('takes only a name, the rest null', async () => {
      const created = await create({ name: 'bare' });
      expect(created).toMatchObject({
        name: 'bare',
        ip: null,
        type: null,
        vendor: null,
        model: null,
        risk_score: null,
        site: null,
        os_version: null,
        services: [],
      });
    });

    it('accepts an IPv6 address', async () => {
      expect((await create({ name: 'v6', ip: '2001:db8::1' })).ip).toBe('2001:db8::1');
    });

    const invalid: [string, object, RegExp][] = [
      ['a missing name', { ip: '10.0.0.9' }, /^name /],
      ['an empty name', { name: '' }, /^name /],
      ['a name over 255 characters', { name: 'n'.repeat(256) }, /^name /],
      ['a name that is not a string', { name: 42 }, /^name /],
      ['an invalid ip', { name: 'x', ip: '10.0.0.256' }, /^ip must be an IP address/],
      ['an ip that is a host name', { name: 'x', ip: 'router.local' }, /^ip /],
      ['an IPv6 zone too long to store', { name: 'x', ip: `fe80::1%${'z'.repeat(60)}` }, /^ip /],
      ['a type over 64 characters', { name: 'x', type: 't'.repeat(65) }, /^type /],
      ['a vendor over 255 characters', { name: 'x', vendor: 'v'.repeat(256) }, /^vendor /],
      ['a model over 255 characters', { name: 'x', model: 'm'.repeat(256) }, /^model /],
      ['a site over 255 characters', { name: 'x', site: 's'.repeat(256) }, /^site /],
      ['an os_version over 255', { name: 'x', os_version: 'o'.repeat(256) }, /^os_version /],
      ['a risk_score over 100', { name: 'x', risk_score: 101 }, /^risk_score /],
      ['a negative risk_score', { name: 'x', risk_score: -1 }, /^risk_score /],
      ['a fractional risk_score', { name: 'x', risk_score: 5.5 }, /^risk_score /],
      ['a risk_score given as a string', { name: 'x', risk_score: '5' }, /^risk_score /],
      ['an id (server-generated)', { name: 'x', id: 'mine' }, /^id is not an accepted property/],
      ['a source (written by ingestion only)', { name: 'x', source: 'feed' }, /^source /],
      [
        'a vulnerability out of range',
        { name: 'x', vulnerabilities: [{ id: 'CVE-1', score: 11 }] },
        /^vulnerabilities\[0\]\.score /,
      ],
      ['an origin (set by the service)', { name: 'x', origin: 'ingest' }, /^origin is not an/],
      ['sources (written by ingestion only)', { name: 'x', sources: ['f'] }, /^sources is not an/],
      [
        'a firstSeenAt (written by ingestion only)',
        { name: 'x', firstSeenAt: '2026-01-01T00:00:00.000Z' },
        /^firstSeenAt is not an accepted property/,
      ],
      [
        'a lastSeenAt (written by ingestion only)',
        { name: 'x', lastSeenAt: null },
        /^lastSeenAt is not an accepted property/,
      ],
      ['an unknown property', { name: 'x', color: 'red' }, /^color is not an accepted property/],
    ];
    it.each(invalid)(
      'refuses %s with 400 naming the field, writing nothing',
      async (_c, body, message) => {
        const before = await total();
        const response = await t.request('POST', '/api/assets', { token: editor, body });
        expect(response.status).toBe(400);
        expectErrorBody(response, message);
        expect(await total()).toBe(before);
      },
    );
  });

  describe('PUT /api/assets/:id', () => {
    it('changes only the given fields', async () => {
      const { id } = await create({
        name: 'fw',
        ip: '10.1.0.1',
        vendor: 'Fortinet',
        risk_score: 10,
      });
      // Stored as made a minute ago: the update's timestamp is later whatever the clock's grain.
      const past = new Date(Date.now() - 60_000);
      await t.seed(() =>
        t.dataSource.getRepository(Asset).update(id, { createdAt: past, updatedAt: past }),
      );
      const created = (await t.request('GET', `/api/assets/${id}`, { token: viewer })).body;
      expect(created.updatedAt).toBe(past.toISOString());
      const response = await t.request('PUT', `/api/assets/${created.id}`, {
        token: editor,
        body: { risk_score: 90, os_version: 'FortiOS 7.4' },
      });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        ...created,
        risk_score: 90,
        os_version: 'FortiOS 7.4',
        updatedAt: expect.any(String),
      });
      expect(response.body.updatedAt > created.updatedAt).toBe(true);
      const fetched = await t.request('GET', `/api/assets/${created.id}`, { token: viewer });
      expect(fetched.body).toEqual(response.body);
    });

    it('clears an optional field given null', async () => {
      const created = await create({ name: 'ap', vendor: 'Aruba' });
      const response = await t.request('PUT', `/api/assets/${created.id}`, {
        token: editor,
        body: { vendor: null },
      });
      expect(response.status).toBe(200);
      expect(response.body.vendor).toBeNull();
    });

    it.each([
      ['a null name', { name: null }, /^name /],
      ['an empty name', { name: '' }, /^name /],
      ['an invalid ip', { ip: 'nope' }, /^ip /],
      ['a risk_score over 100', { risk_score: 1000 }, /^risk_score /],
      ['an unknown property', { owner: 'me' }, /^owner is not an accepted property/],
      ['an origin', { origin: 'manual' }, /^origin is not an accepted property/],
      ['sources', { sources: [] }, /^sources is not an accepted property/],
      ['a firstSeenAt', { firstSeenAt: null }, /^firstSeenAt is not an accepted property/],
      [
        'a lastSeenAt beside a valid field',
        { name: 'renamed', lastSeenAt: '2026-03-01T00:00:00.000Z' },
        /^lastSeenAt is not an accepted property/,
      ],
    ])('refuses %s with 400, changing nothing', async (_c, body, message) => {
      const { id } = await create({ name: 'stable', ip: '10.2.0.1', risk_score: 5 });
      await markIngested(t, id, ['feed-a']);
      const created = (await t.request('GET', `/api/assets/${id}`, { token: viewer })).body;
      const response = await t.request('PUT', `/api/assets/${id}`, { token: editor, body });
      expect(response.status).toBe(400);
      expectErrorBody(response, message);
      const fetched = await t.request('GET', `/api/assets/${id}`, { token: viewer });
      expect(fetched.body).toEqual(created);
    });

    it("keeps an ingested asset's origin, sources and sightings", async () => {
      const { id } = await create({ name: 'scanned', vendor: 'HP' });
      await markIngested(t, id, ['nmap-dmz', 'nessus-weekly']);
      const response = await t.request('PUT', `/api/assets/${id}`, {
        token: editor,
        body: { name: 'scanned-renamed', vendor: null },
      });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        name: 'scanned-renamed',
        vendor: null,
        origin: 'ingest',
        sources: ['nmap-dmz', 'nessus-weekly'],
        firstSeenAt: '2026-01-02T03:04:05.678Z',
        lastSeenAt: '2026-02-03T04:05:06.789Z',
      });
      const fetched = await t.request('GET', `/api/assets/${id}`, { token: viewer });
      expect(fetched.body).toEqual(response.body);
    });

    it("keeps a manual asset's provenance", async () => {
      const { id } = await create({ name: 'typed-in' });
      const response = await t.request('PUT', `/api/assets/${id}`, {
        token: editor,
        body: { site: 'lyon' },
      });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ site: 'lyon', ...MANUAL });
    });

    it('is 404 for an unknown id', async () => {
      const response = await t.request('PUT', '/api/assets/no-such-asset', {
        token: editor,
        body: { name: 'x' },
      });
      expect(response.status).toBe(404);
      expectErrorBody(response);
    });
  });

  describe('DELETE /api/assets/:id', () => {
    it('answers 204 and deletes the asset with its vulnerabilities, sources and relations', async () => {
      const a = await create({ name: 'a' });
      const b = await create({ name: 'b' });
      const c = await create({ name: 'c' });
      await markIngested(t, a.id, ['feed-1', 'feed-2']);
      await markIngested(t, b.id, ['feed-1']);
      await t.seed(() =>
        t.dataSource.getRepository(Finding).insert([
          {
            id: randomUUID(),
            assetId: a.id,
            vulnId: 'CVE-2024-0001',
            score: 7.5,
            severity: severityOf(7.5),
            summary: 's',
            publishedDate: '2024-01-02',
            status: 'open' as const,
            firstSeenAt: new Date(),
            lastSeenAt: new Date(),
          },
          {
            id: randomUUID(),
            assetId: b.id,
            vulnId: 'CVE-2024-0002',
            score: 5,
            severity: severityOf(5),
            summary: null,
            publishedDate: null,
            status: 'open' as const,
            firstSeenAt: new Date(),
            lastSeenAt: new Date(),
          },
        ]),
      );
      const now = new Date();
      const relation = (id: string, sourceAssetId: string, targetAssetId: string) => ({
        id,
        sourceAssetId,
        targetAssetId,
        type: 'link',
        direction: RelationDirection.Bi,
        createdAt: now,
        updatedAt: now,
      });
      await t.seed(() =>
        t.dataSource
          .getRepository(Relation)
          .insert([
            relation('r1', a.id, b.id),
            relation('r2', c.id, a.id),
            relation('r3', b.id, c.id),
          ]),
      );

      const response = await t.request('DELETE', `/api/assets/${a.id}`, { token: editor });
      expect(response.status).toBe(204);
      expect(response.body).toBeUndefined();
      expect((await t.request('GET', `/api/assets/${a.id}`, { token: viewer })).status).toBe(404);
      const vulnerabilities = await t.dataSource.getRepository(Finding).find();
      expect(vulnerabilities.map((v) => v.assetId)).not.toContain(a.id);
      expect(vulnerabilities.map((v) => v.assetId)).toContain(b.id);
      const relations = await t.dataSource.query<{ id: string }[]>('SELECT id FROM relations');
      expect(relations.map((r) => r.id).sort()).toEqual(['r3']);
      const sources = await t.dataSource.getRepository(AssetSource).findBy({ source: 'feed-1' });
      expect(sources.map((s) => s.assetId)).toEqual([b.id]);
    });

    it('is 404 for an unknown id', async () => {
      const response = await t.request('DELETE', '/api/assets/no-such-asset', { token: editor });
      expect(response.status).toBe(404);
      expectErrorBody(response);
    });
  });

  describe('GET /api/assets/:id', () => {
    it('carries the provenance: origin, sources in the order feeds first reported it, sightings', async () => {
      const { id } = await create({ name: 'seen' });
      const first = new Date('2025-12-31T23:59:59.001Z');
      const last = new Date('2026-11-24T05:00:00.000Z');
      await markIngested(t, id, ['zeta-feed', 'alpha-feed', 'mid-feed'], { first, last });
      const response = await t.request('GET', `/api/assets/${id}`, { token: viewer });
      expect(response.status).toBe(200);
      expect(Object.keys(response.body).sort()).toEqual(ASSET_KEYS);
      expect(response.body).toMatchObject({
        origin: 'ingest',
        sources: ['zeta-feed', 'alpha-feed', 'mid-feed'],
        firstSeenAt: first.toISOString(),
        lastSeenAt: last.toISOString(),
      });
    });

    it('shows an ingested asset without sources with an empty list', async () => {
      const { id } = await create({ name: 'no-feed' });
      await markIngested(t, id, []);
      const response = await t.request('GET', `/api/assets/${id}`, { token: viewer });
      expect(response.body).toMatchObject({ origin: 'ingest', sources: [] });
    });

    it('carries the vulnerabilities', async () => {
      const created = await create({ name: 'vulnerable' });
      await t.seed(() =>
        t.dataSource.getRepository(Finding).insert({
          id: randomUUID(),
          assetId: created.id,
          vulnId: 'CVE-2023-1234',
          score: 9.8,
          severity: severityOf(9.8),
          summary: 'remote code execution',
          publishedDate: '2023-06-01',
          status: 'open' as const,
          firstSeenAt: new Date(),
          lastSeenAt: new Date(),
        }),
      );
      const response = await t.request('GET', `/api/assets/${created.id}`, { token: viewer });
      expect(response.body.vulnerabilities).toEqual([
        {
          id: 'CVE-2023-1234',
          score: 9.8,
          summary: 'remote code execution',
          publishedDate: '2023-06-01',
        },
      ]);
    });

    it.each(['no-such-asset', '00000000-0000-0000-0000-000000000000', 'x'.repeat(300), '%25'])(
      'is 404 for %s',
      async (id) => {
        const response = await t.request('GET', `/api/assets/${id}`, { token: viewer });
        expect(response.status).toBe(404);
        expectErrorBody(response);
      },
    );
  });

  describe('roles', () => {
    it('lets a viewer read but not write', async () => {
      const created = await create({ name: 'read-only' });
      expect((await t.request('GET', '/api/assets', { token: viewer })).status).toBe(200);
      expect((await t.request('GET', `/api/assets/${created.id}`, { token: viewer })).status).toBe(
        200,
      );
      for (const [method, path, body] of [
        ['POST', '/api/assets', { name: 'x' }],
        ['PUT', `/api/assets/${created.id}`, { name: 'x' }],
        ['DELETE', `/api/assets/${created.id}`, undefined],
      ] as const) {
        const response = await t.request(method, path, { token: viewer, body });
        expect(response.status).toBe(403);
        expectErrorBody(response);
      }
      expect(
        (await t.request('GET', `/api/assets/${created.id}`, { token: viewer })).body.name,
      ).toBe('read-only');
    });

    it('lets an admin write', async () => {
      const created = await create({ name: 'by-admin' }, admin);
      expect(
        (await t.request('DELETE', `/api/assets/${created.id}`, { token: admin })).status,
      ).toBe(204);
    });

    it('refuses every route without a token', async () => {
      for (const [method, path] of [
        ['GET', '/api/assets'],
        ['GET', '/api/assets/x'],
        ['POST', '/api/assets'],
        ['PUT', '/api/assets/x'],
        ['DELETE', '/api/assets/x'],
      ]) {
        expect((await t.request(method, path)).status).toBe(401);
      }
    });
  });
});

/** Names of the 25 listed hosts whose index passes the test. */
const hosts = (test: (index: number) => boolean) =>
  Array.from({ length: 25 }, (_v, i) => `host-${String(i).padStart(2, '0')}`).filter((_n, i) =>
    test(i),
  );

describe('GET /api/assets', () => {
  let t: TestApp;
  let token: string;
  const names: string[] = [];
  const ids: string[] = [];

  beforeAll(async () => {
    t = await TestApp.start();
    token = await t.login();
    // 25 assets over three sites and two types; every 5th has no vendor.
    for (let i = 0; i < 25; i++) {
      const name = `host-${String(i).padStart(2, '0')}`;
      names.push(name);
      const response = await t.request('POST', '/api/assets', {
        token,
        body: {
          name,
          ip: `192.168.1.${i + 1}`,
          type: i % 2 === 0 ? 'server' : 'workstation',
          site: ['paris', 'lyon', 'nantes'][i % 3],
          vendor: i % 5 === 0 ? null : `Vendor_${i % 4}`,
          risk_score: (i * 7) % 100,
          os_version: i === 13 ? 'Debian 12 (Bookworm)' : null,
        },
      });
      expect(response.status).toBe(201);
      ids.push(response.body.id as string);
    }
    // Feeds: nmap-dmz reports every 4th, nessus every 5th (host-00 and host-20 by both).
    for (let i = 0; i < 25; i++) {
      const sources = [...(i % 4 === 0 ? ['nmap-dmz'] : []), ...(i % 5 === 0 ? ['nessus'] : [])];
      if (sources.length > 0) await markIngested(t, ids[i], sources);
    }
  });
  afterAll(async () => {
    await t.close();
  });

  const list = async (query: string) => {
    const response = await t.request('GET', `/api/assets${query}`, { token });
    expect(response.status).toBe(200);
    return response.body as { assets: Record<string, any>[]; total: number };
  };

  it('answers {assets, total} in creation order, 100 by default', async () => {
    const body = await list('');
    expect(Object.keys(body).sort()).toEqual(['assets', 'total']);
    expect(body.total).toBe(25);
    expect(body.assets.map((a) => a.name)).toEqual(names);
    expect(body.assets[0].vulnerabilities).toEqual([]);
  });

  it('shows the provenance of every listed asset, as the asset itself does', async () => {
    const { assets } = await list('?limit=25');
    expect(assets.map((a) => a.sources)).toEqual(
      names.map((_n, i) => [
        ...(i % 4 === 0 ? ['nmap-dmz'] : []),
        ...(i % 5 === 0 ? ['nessus'] : []),
      ]),
    );
    for (const asset of assets) {
      expect(Object.keys(asset).sort()).toEqual(ASSET_KEYS);
      const fetched = await t.request('GET', `/api/assets/${asset.id}`, { token });
      expect(fetched.body).toEqual(asset);
      if (asset.sources.length === 0) expect(asset).toMatchObject(MANUAL);
      else expect(asset).toMatchObject({ origin: 'ingest', firstSeenAt: expect.any(String) });
    }
  });

  it('filters by source: the assets whose sources hold it, total counting them', async () => {
    const nmap = await list('?source=nmap-dmz');
    expect(nmap.assets.map((a) => a.name)).toEqual(hosts((i) => i % 4 === 0));
    expect(nmap.total).toBe(7);
    // Held second in host-00's and host-20's list, first in the others'.
    const nessus = await list('?source=nessus');
    expect(nessus.assets.map((a) => a.name)).toEqual(hosts((i) => i % 5 === 0));
    expect(nessus.assets[0].sources).toEqual(['nmap-dmz', 'nessus']);
    // Exact: neither a different case nor a part of the name, nor LIKE's wildcards.
    for (const other of ['NMAP-DMZ', 'nmap', 'nmap%25', 'nmap-dm_', 'unknown-feed']) {
      expect(await list(`?source=${other}`)).toEqual({ assets: [], total: 0 });
    }
  });

  it('combines source with the other filters, the sort and paging', async () => {
    const servers = await list('?source=nessus&type=server');
    expect(servers.assets.map((a) => a.name)).toEqual(['host-00', 'host-10', 'host-20']);
    expect(servers.total).toBe(3);
    const lyon = await list('?source=nessus&type=server&site=lyon');
    expect(lyon.assets.map((a) => a.name)).toEqual(['host-10']);
    const searched = await list('?source=nessus&search=HOST-1');
    expect(searched.assets.map((a) => a.name)).toEqual(['host-10', 'host-15']);
    expect(searched.total).toBe(2);

    const all = hosts((i) => i % 4 === 0);
    const page = await list('?source=nmap-dmz&limit=3&offset=3');
    expect(page.assets.map((a) => a.name)).toEqual(all.slice(3, 6));
    expect(page.total).toBe(7);
    const last = await list('?source=nmap-dmz&limit=3&offset=6');
    expect(last.assets.map((a) => a.name)).toEqual(all.slice(6));
    expect((await list('?source=nmap-dmz&offset=7')).assets).toEqual([]);
    const descending = await list('?source=nmap-dmz&sort=-name&limit=2');
    expect(descending.assets.map((a) => a.name)).toEqual([...all].reverse().slice(0, 2));
    expect(descending.total).toBe(7);
  });

  it('filters by a source of 100 characters', async () => {
    const long = 'f'.repeat(100);
    await markIngested(t, ids[3], [long]);
    try {
      const body = await list(`?source=${long}`);
      expect(body.assets.map((a) => a.name)).toEqual(['host-03']);
      expect(body.assets[0].sources).toEqual([long]);
    } finally {
      await t.seed(() => t.dataSource.getRepository(AssetSource).delete({ assetId: ids[3] }));
    }
  });

  it('pages without overlap or gap, total counting every match', async () => {
    const seen: string[] = [];
    for (let offset = 0; offset < 25; offset += 7) {
      const page = await list(`?limit=7&offset=${offset}`);
      expect(page.total).toBe(25);
      expect(page.assets.length).toBe(Math.min(7, 25 - offset));
      seen.push(...page.assets.map((a) => a.name));
    }
    expect(seen).toEqual(names);
    expect((await list('?offset=25')).assets).toEqual([]);
  });

  it('pages stably when the sort key ties, by id', async () => {
    const all = (await list('?sort=type&limit=25')).assets.map((a) => a.id);
    const paged: string[] = [];
    for (let offset = 0; offset < 25; offset += 4) {
      paged.push(...(await list(`?sort=type&limit=4&offset=${offset}`)).assets.map((a) => a.id));
    }
    expect(paged).toEqual(all);
    expect(new Set(paged).size).toBe(25);
  });

  it('filters by type and site exactly, total counting the matches', async () => {
    const servers = await list('?type=server');
    expect(servers.total).toBe(13);
    expect(servers.assets.every((a) => a.type === 'server')).toBe(true);
    const both = await list('?type=server&site=lyon&limit=2');
    const expected = names.filter((_n, i) => i % 2 === 0 && i % 3 === 1);
    expect(both.total).toBe(expected.length);
    expect(both.assets.map((a) => a.name)).toEqual(expected.slice(0, 2));
    expect((await list('?type=SERVER')).total).toBe(0);
  });

  it.each([
    ['name', 'HOST-07', ['host-07']],
    [
      'ip',
      '192.168.1.2',
      ['host-01', 'host-19', 'host-20', 'host-21', 'host-22', 'host-23', 'host-24'],
    ],
    ['vendor', 'vendor_3', ['host-03', 'host-07', 'host-11', 'host-19', 'host-23']],
    ['site', 'NANT', hosts((i) => i % 3 === 2)],
    ['type', 'Workstation', hosts((i) => i % 2 === 1)],
    ['os_version', 'bookworm', ['host-13']],
  ])('searches %s case-insensitively', async (_field, term, expected) => {
    const body = await list(`?search=${encodeURIComponent(term)}`);
    expect(body.assets.map((a) => a.name)).toEqual(expected);
    expect(body.total).toBe(expected.length);
  });

  it('treats % and _ in a search as plain characters', async () => {
    expect((await list('?search=%25')).total).toBe(0);
    expect((await list('?search=r_3')).total).toBe(5);
    expect((await list('?search=r_')).total).toBe(20);
    expect((await list('?search=t_')).total).toBe(0);
  });

  it.each(['name', 'ip', 'type', 'vendor', 'site', 'risk_score', 'createdAt', 'updatedAt'])(
    'sorts by %s both ways, nulls last either way',
    async (field) => {
      const ascending = (await list(`?sort=${field}&limit=25`)).assets;
      const descending = (await list(`?sort=-${field}&limit=25`)).assets;
      const values = ascending.map((a) => a[field]);
      const nonNull = values.filter((v) => v !== null);
      const sorted = [...nonNull].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
      expect(nonNull).toEqual(sorted);
      expect(values.slice(nonNull.length).every((v) => v === null)).toBe(true);
      const descendingValues = descending.map((a) => a[field]);
      expect(descendingValues.slice(0, nonNull.length)).toEqual([...sorted].reverse());
      expect(descendingValues.slice(nonNull.length).every((v) => v === null)).toBe(true);
    },
  );

  it('runs a fixed number of queries whatever the page size', async () => {
    const count = (query: string) => fewestQueries(t.dataSource, () => list(query));
    const small = await count('?limit=2');
    const large = await count('?limit=25');
    expect(small).toBeGreaterThan(0);
    expect(large).toBe(small);
    expect(await count('?limit=25&source=nmap-dmz')).toBe(small);
  });

  it.each([
    ['limit=0', /^limit /],
    ['limit=1001', /^limit /],
    ['limit=abc', /^limit /],
    ['limit=1.5', /^limit /],
    ['offset=-1', /^offset /],
    ['offset=x', /^offset /],
    // Past what the databases take as an OFFSET or a LIMIT: a 400, not their error.
    ['offset=9223372036854775807', /^offset must be an integer from 0 to 2147483647/],
    ['offset=2147483648', /^offset must be an integer from 0 to 2147483647/],
    [`offset=${'9'.repeat(400)}`, /^offset /],
    ['limit=9223372036854775807', /^limit must be an integer from 1 to 1000/],
    ['sort=color', /^sort must be one of/],
    ['sort=--name', /^sort /],
    ['search=' + 's'.repeat(256), /^search /],
    ['page=2', /^page is not an accepted property/],
    ['source=', /^source must be 1 to 100 characters long/],
    ['source=' + 's'.repeat(101), /^source must be 1 to 100 characters long/],
    ['source=a&source=b', /^source must be given once$/],
    ['limit=1&limit=1', /^limit must be given once$/],
    ['source=a%00b', /^source must not contain NUL characters/],
  ])('refuses ?%s with 400 naming the parameter', async (query, message) => {
    const response = await t.request('GET', `/api/assets?${query}`, { token });
    expect(response.status).toBe(400);
    expectErrorBody(response, message);
  });

  it('answers an empty page at the largest offset, with the total', async () => {
    const response = await t.request('GET', '/api/assets?offset=2147483647', { token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ assets: [], total: (await list('')).total });
  });

  it('allows a page of 1000', async () => {
    expect((await list('?limit=1000')).assets).toHaveLength(25);
  });
});
