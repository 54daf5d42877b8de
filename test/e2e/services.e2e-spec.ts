import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { storeRows } from '../support/ingest-helpers.js';
import { expectErrorBody, TestApp } from '../support/test-app.js';

const INGEST = '/api/integrations/ingest';

const SSH = { port: 22, protocol: 'tcp', name: 'ssh', product: 'OpenSSH', version: '9.6' };
const DNS = { port: 53, protocol: 'udp', name: 'domain', product: null, version: null };
const HTTPS = { port: 443, protocol: 'tcp', name: 'https', product: 'nginx', version: '1.24.0' };

/** An entry as the API answers it: every field present, absent ones null. */
const shown = (service: Record<string, unknown>) => ({
  name: null,
  product: null,
  version: null,
  ...service,
});

async function serviceRowCount(t: TestApp): Promise<number> {
  const [row] = await t.dataSource.query<{ n: string | number }[]>(
    'SELECT COUNT(*) AS n FROM services',
  );
  return Number(row.n);
}

const PORT = 'must be an integer from 1 to 65535';

/**
 * Bad `services` values, and the 400's message after the path of the list (`services`,
 * `assets[1].services`), which `%s` stands for where the message names it again.
 */
const BAD_SERVICES: [string, unknown, string][] = [
  ['null', null, ' must be an array'],
  ['an object', { port: 22, protocol: 'tcp' }, ' must be an array'],
  ['an entry that is no object', [SSH, 22], '[1] must be an object'],
  ['an unknown key', [{ ...SSH, banner: 'x' }], '[0].banner is not an accepted property'],
  ['no port', [{ protocol: 'tcp' }], `[0].port ${PORT}`],
  ['port 0', [{ port: 0, protocol: 'tcp' }], `[0].port ${PORT}`],
  ['port 65536', [SSH, { port: 65536, protocol: 'tcp' }], `[1].port ${PORT}`],
  ['a port as text', [{ port: '22', protocol: 'tcp' }], `[0].port ${PORT}`],
  ['a fractional port', [{ port: 22.5, protocol: 'tcp' }], `[0].port ${PORT}`],
  ['no protocol', [{ port: 22 }], '[0].protocol must be tcp, udp or sctp'],
  ['protocol icmp', [{ port: 22, protocol: 'icmp' }], '[0].protocol must be tcp, udp or sctp'],
  [
    'a name of 65 characters',
    [{ ...SSH, name: 'n'.repeat(65) }],
    '[0].name must be at most 64 characters long',
  ],
  [
    'a product of 256 characters',
    [{ ...SSH, product: 'p'.repeat(256) }],
    '[0].product must be at most 255 characters long',
  ],
  ['a version that is no string', [{ ...SSH, version: 9.6 }], '[0].version must be a string'],
  [
    'the same port and protocol twice',
    [SSH, DNS, { port: 22, protocol: 'tcp', name: 'other' }],
    '[2] repeats the port and protocol of %s[0] (22/tcp)',
  ],
];

/** The whole 400 answer for a bad list at `path`. */
const refusal = (path: string, message: string) => ({
  error: `${path}${message.replace('%s', path)}`,
});

describe('services on assets, through /api/assets', () => {
  let t: TestApp;
  let editor: string;
  let viewer: string;

  const create = async (body: object) => {
    const response = await t.request('POST', '/api/assets', { token: editor, body });
    expect(response.status).toBe(201);
    return response.body as Record<string, any>;
  };
  const get = async (id: string) => {
    const response = await t.request('GET', `/api/assets/${id}`, { token: viewer });
    expect(response.status).toBe(200);
    return response.body as Record<string, any>;
  };
  const put = (id: string, body: unknown) =>
    t.request('PUT', `/api/assets/${id}`, { token: editor, body });
  const assetCount = async () =>
    (await t.request('GET', '/api/assets?limit=1', { token: viewer })).body.total as number;

  beforeAll(async () => {
    t = await TestApp.start();
    editor = (await t.createUser('editor')).token;
    viewer = (await t.createUser('viewer')).token;
  });
  afterAll(async () => {
    await t.close();
  });

  it('creates an asset with its services, shown in port then protocol order', async () => {
    const created = await create({
      name: 'gateway',
      services: [HTTPS, { port: 22, protocol: 'sctp' }, SSH, DNS],
    });
    const services = [shown({ port: 22, protocol: 'sctp' }), SSH, DNS, HTTPS];
    expect(created.services).toEqual(services);
    expect((await get(created.id)).services).toEqual(services);
  });

  it('keeps a name, product and version of the longest lengths and an empty name', async () => {
    const long = { port: 1, protocol: 'udp', name: 'n'.repeat(64), product: 'p'.repeat(255) };
    const created = await create({
      name: 'long',
      services: [
        { ...long, version: 'v'.repeat(255) },
        { port: 65535, protocol: 'tcp', name: '' },
      ],
    });
    expect(created.services).toEqual([
      { ...long, version: 'v'.repeat(255) },
      shown({ port: 65535, protocol: 'tcp', name: '' }),
    ]);
  });

  it('shows services: [] for an asset without any, in the list too', async () => {
    const created = await create({ name: 'bare' });
    expect(created.services).toEqual([]);
    const { assets } = (await t.request('GET', '/api/assets?limit=1000', { token: viewer })).body;
    const listed = new Map(assets.map((asset: Record<string, any>) => [asset.id, asset]));
    expect((listed.get(created.id) as Record<string, any>).services).toEqual([]);
    for (const asset of assets) expect(asset).toEqual(await get(asset.id));
  });

  it('on PUT, replaces the list when given, keeps it when absent, clears it with []', async () => {
    const { id } = await create({ name: 'web', services: [SSH, HTTPS] });

    const renamed = await put(id, { name: 'web-1' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.services).toEqual([SSH, HTTPS]);

    const replaced = await put(id, { services: [{ ...HTTPS, version: '1.25.0' }, DNS] });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({
      name: 'web-1',
      services: [DNS, { ...HTTPS, version: '1.25.0' }],
    });
    expect(await get(id)).toEqual(replaced.body);

    const cleared = await put(id, { services: [] });
    expect(cleared.body.services).toEqual([]);
    expect((await get(id)).services).toEqual([]);
  });

  it('is 404 on PUT to an unknown asset, writing no service', async () => {
    const before = await serviceRowCount(t);
    const response = await put('no-such-asset', { services: [SSH] });
    expect(response.status).toBe(404);
    expectErrorBody(response);
    expect(await serviceRowCount(t)).toBe(before);
  });

  it('deletes the services with their asset', async () => {
    const { id } = await create({ name: 'doomed', services: [SSH, DNS] });
    const before = await serviceRowCount(t);
    expect((await t.request('DELETE', `/api/assets/${id}`, { token: editor })).status).toBe(204);
    expect(await serviceRowCount(t)).toBe(before - 2);
  });

  it.each(BAD_SERVICES)(
    'refuses %s with a 400 naming the field, on POST and PUT, writing nothing',
    async (_case, services, message) => {
      const { id } = await create({ name: 'kept', services: [SSH] });
      const assets = await assetCount();
      const rows = await serviceRowCount(t);

      const posted = await t.request('POST', '/api/assets', {
        token: editor,
        body: { name: 'refused', services },
      });
      expect(posted.status).toBe(400);
      expect(posted.body).toEqual(refusal('services', message));

      const updated = await put(id, { name: 'changed', services });
      expect(updated.status).toBe(400);
      expect(updated.body).toEqual(refusal('services', message));

      expect(await assetCount()).toBe(assets);
      expect(await serviceRowCount(t)).toBe(rows);
      expect(await get(id)).toMatchObject({ name: 'kept', services: [SSH] });
    },
  );

  it('refuses services from a viewer', async () => {
    const response = await t.request('POST', '/api/assets', {
      token: viewer,
      body: { name: 'x', services: [SSH] },
    });
    expect(response.status).toBe(403);
  });
});

describe('GET /api/assets?port=&service=', () => {
  let t: TestApp;
  let token: string;

  const list = async (query: string) => {
    const response = await t.request('GET', `/api/assets${query}`, { token });
    expect(response.status).toBe(200);
    return response.body as { assets: Record<string, any>[]; total: number };
  };
  const names = async (query: string) => (await list(query)).assets.map((asset) => asset.name);

  beforeAll(async () => {
    t = await TestApp.start();
    token = await t.login();
    const assets: [string, string, object[]][] = [
      ['bastion', 'server', [SSH]],
      ['dns-1', 'server', [DNS, { ...SSH, version: '8.9' }]],
      ['proxy', 'appliance', [HTTPS, { port: 8443, protocol: 'tcp', name: 'https' }]],
      ['sensor', 'appliance', [{ port: 22, protocol: 'sctp', name: 'SSH' }]],
      ['printer', 'printer', []],
      ['web', 'server', [{ port: 443, protocol: 'udp', name: 'quic' }]],
    ];
    for (const [name, type, services] of assets) {
      const response = await t.request('POST', '/api/assets', {
        token,
        body: { name, type, services },
      });
      expect(response.status).toBe(201);
    }
  });
  afterAll(async () => {
    await t.close();
  });

  it('filters by port, whatever the protocol, total counting the matches', async () => {
    expect(await list('?port=22')).toMatchObject({ total: 3 });
    expect(await names('?port=22')).toEqual(['bastion', 'dns-1', 'sensor']);
    expect(await names('?port=443')).toEqual(['proxy', 'web']);
    expect(await names('?port=53')).toEqual(['dns-1']);
    expect(await list('?port=80')).toEqual({ assets: [], total: 0 });
  });

  it('shows the whole service list of each asset found', async () => {
    const { assets } = await list('?port=53');
    expect(assets[0].services).toEqual([shown({ ...SSH, version: '8.9' }), DNS]);
  });

  it('filters by service name, exactly', async () => {
    expect(await names('?service=ssh')).toEqual(['bastion', 'dns-1']);
    expect(await names('?service=SSH')).toEqual(['sensor']);
    expect(await names('?service=https')).toEqual(['proxy']);
    for (const other of ['ss', 'ssh%25', 's_h', 'nothing']) {
      expect(await list(`?service=${other}`)).toEqual({ assets: [], total: 0 });
    }
  });

  it('combines both with each other and the other filters, the sort and paging', async () => {
    expect(await names('?port=22&service=ssh')).toEqual(['bastion', 'dns-1']);
    expect(await names('?port=8443&service=https')).toEqual(['proxy']);
    expect(await names('?port=443&service=quic&type=server')).toEqual(['web']);
    expect(await names('?port=22&type=appliance')).toEqual(['sensor']);
    expect(await names('?port=22&sort=-name')).toEqual(['sensor', 'dns-1', 'bastion']);
    const page = await list('?port=22&limit=1&offset=1');
    expect(page.assets.map((asset) => asset.name)).toEqual(['dns-1']);
    expect(page.total).toBe(3);
    expect(await names('?service=ssh&search=BAST')).toEqual(['bastion']);
  });

  it.each([
    ['port=0', /^port must be an integer from 1 to 65535$/],
    ['port=65536', /^port must be an integer from 1 to 65535$/],
    ['port=-1', /^port must be an integer from 1 to 65535$/],
    ['port=22.5', /^port must be an integer from 1 to 65535$/],
    ['port=1e3', /^port must be an integer from 1 to 65535$/],
    ['port=ssh', /^port must be an integer from 1 to 65535$/],
    ['port=', /^port must be an integer from 1 to 65535$/],
    ['port=22&port=23', /^port must be given once$/],
    [`port=${'9'.repeat(400)}`, /^port must be an integer from 1 to 65535$/],
    ['service=' + 's'.repeat(65), /^service must be at most 64 characters long$/],
    ['service=a&service=b', /^service must be given once$/],
  ])('refuses ?%s with 400 naming the parameter', async (query, message) => {
    const response = await t.request('GET', `/api/assets?${query}`, { token });
    expect(response.status).toBe(400);
    expectErrorBody(response, message);
  });
});

describe('services through ingestion', () => {
  let t: TestApp;
  let admin: string;
  let editor: string;

  const post = (body: object, token = editor) => t.request('POST', INGEST, { token, body });
  const ingest = async (body: object, token = editor) => {
    const response = await post(body, token);
    expect(response.status).toBe(200);
    return response.body as Record<string, any>;
  };
  const servicesOf = async (id: string) =>
    (await t.request('GET', `/api/assets/${id}`, { token: editor })).body.services;

  beforeAll(async () => {
    // On SQLite a private file too: a worker thread writes the rows, as in production.
    t = await TestApp.start();
    [admin, editor] = [await t.login(), (await t.createUser('editor')).token];
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(async () => {
    await ingest({ options: { mode: 'replace' } }, admin);
  });

  const scan = (services?: object[], rest: object = {}) => ({
    options: { source: 'nmap-dmz' },
    assets: [
      { id: 'web-1', name: 'web-1', ip: '10.0.0.1', ...(services && { services }), ...rest },
      { id: 'db-1', name: 'db-1', ip: '10.0.0.2', services: [DNS] },
    ],
  });

  it('creates assets with their services', async () => {
    const answer = await ingest(scan([HTTPS, SSH]));
    expect(answer.stats).toMatchObject({ assetsCreated: 2, vulnerabilities: 0 });
    expect(await servicesOf('web-1')).toEqual([SSH, HTTPS]);
    expect(await servicesOf('db-1')).toEqual([DNS]);
  });

  it('counts the same list again, in any order, as unchanged, writing nothing but the sighting', async () => {
    await ingest(scan([SSH, HTTPS]));
    const before = await storeRows(t.dataSource);
    const answer = await ingest(scan([HTTPS, { ...SSH }]));
    expect(answer.stats).toMatchObject({ assetsUpdated: 0, assetsUnchanged: 2 });
    expect(answer.changes.assets.updated).toEqual([]);
    const after = await storeRows(t.dataSource);
    expect(JSON.parse(after).services).toEqual(JSON.parse(before).services);
  });

  it('keeps the stored list when an item has none: unchanged', async () => {
    await ingest(scan([SSH]));
    const answer = await ingest(scan(undefined));
    expect(answer.stats).toMatchObject({ assetsUpdated: 0, assetsUnchanged: 2 });
    expect(await servicesOf('web-1')).toEqual([SSH]);
  });

  it('replaces a changed list: an update, with the lists before and after in the changes', async () => {
    await ingest(scan([SSH, HTTPS]));
    const newer = { ...SSH, version: '9.7' };
    const answer = await ingest(scan([newer, DNS]));
    expect(answer.stats).toMatchObject({ assetsUpdated: 1, assetsUnchanged: 1 });
    expect(answer.changes.assets.updated).toEqual([
      {
        id: 'web-1',
        name: 'web-1',
        fields: {
          services: [
            [SSH, HTTPS],
            [newer, DNS],
          ],
        },
      },
    ]);
    expect(await servicesOf('web-1')).toEqual([newer, DNS]);
    expect(await servicesOf('db-1')).toEqual([DNS]);
  });

  it('clears the list given [] and gives one to a matched asset that had none', async () => {
    await ingest(scan([SSH]));
    await t.request('POST', '/api/assets', {
      token: editor,
      body: { name: 'typed', ip: '10.0.0.3' },
    });
    const answer = await ingest({
      assets: [
        { id: 'web-1', services: [] },
        // Matched by ip.
        { name: 'typed', ip: '10.0.0.3', services: [HTTPS] },
      ],
    });
    expect(answer.stats).toMatchObject({ assetsCreated: 0, assetsUpdated: 2 });
    expect(await servicesOf('web-1')).toEqual([]);
    const { assets } = (await t.request('GET', '/api/assets?port=443', { token: editor })).body;
    expect(assets.map((asset: Record<string, any>) => asset.name)).toEqual(['typed']);
  });

  it('a dry run plans the replacement and writes nothing', async () => {
    await ingest(scan([SSH]));
    const before = await storeRows(t.dataSource);
    const answer = await ingest({ ...scan([HTTPS]), options: { dryRun: true } });
    expect(answer.dryRun).toBe(true);
    expect(answer.stats).toMatchObject({ assetsUpdated: 1 });
    expect(answer.changes.assets.updated[0].fields).toEqual({ services: [[SSH], [HTTPS]] });
    expect(await storeRows(t.dataSource)).toBe(before);
  });

  it('append and replace write the services of the assets they create', async () => {
    await ingest({ options: { mode: 'append' }, assets: [{ name: 'a', services: [SSH] }] });
    expect(await serviceRowCount(t)).toBe(1);
    await ingest(
      { options: { mode: 'replace' }, assets: [{ id: 'r', name: 'r', services: [DNS, HTTPS] }] },
      admin,
    );
    expect(await serviceRowCount(t)).toBe(2);
    expect(await servicesOf('r')).toEqual([DNS, HTTPS]);
  });

  it('deleteStale deletes a stale asset with its services', async () => {
    await ingest(scan([SSH, HTTPS]));
    const answer = await ingest({
      options: { source: 'nmap-dmz', deleteStale: true },
      assets: [{ id: 'db-1' }],
    });
    expect(answer.stats).toMatchObject({ assetsDeleted: 1 });
    expect(await serviceRowCount(t)).toBe(1);
  });

  it.each(BAD_SERVICES)(
    'refuses %s in an item with a 400 naming it, writing nothing',
    async (_case, services, message) => {
      await ingest(scan([SSH]));
      const before = await storeRows(t.dataSource);
      const response = await post({
        options: { source: 'nmap-dmz' },
        assets: [
          { id: 'web-1', name: 'renamed', services: [HTTPS] },
          { id: 'db-1', name: 'db-1', services },
        ],
      });
      expect(response.status).toBe(400);
      expect(response.body).toEqual(refusal('assets[1].services', message));
      expect(await storeRows(t.dataSource)).toBe(before);
    },
  );
});
