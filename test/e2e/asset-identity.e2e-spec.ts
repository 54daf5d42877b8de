import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { assetCalls, identifierRows } from '../support/asset-calls.js';
import { expectErrorBody, TestApp } from '../support/test-app.js';

const INGEST = '/api/integrations/ingest';

describe('asset identity: addresses, MAC addresses, host names', () => {
  let t: TestApp;
  let editor: string;
  let admin: string;

  const calls = assetCalls(() => ({ t, token: editor }));
  const { create, put, get, ingest } = calls;
  /** The asset's identifier rows, as (kind, value) text, sorted. */
  const identifiers = (id: string) => identifierRows(t, id);

  beforeAll(async () => {
    t = await TestApp.start();
    editor = (await t.createUser('editor')).token;
    admin = await t.login();
  });
  afterAll(async () => {
    await t.close();
  });

  it('shows empty lists on an asset created without them, and the ip as its first address', async () => {
    const bare = await create({ name: 'bare' });
    expect(bare).toMatchObject({ ip: null, addresses: [], macAddresses: [], hostnames: [] });
    const withIp = await create({ name: 'with-ip', ip: '10.0.0.1' });
    expect(withIp).toMatchObject({ ip: '10.0.0.1', addresses: ['10.0.0.1'] });
    expect(await identifiers(withIp.id)).toEqual(['ip 40a000001']);
  });

  it('normalizes the lists, leaves repeats out, and sets ip from addresses', async () => {
    const created = await create({
      name: 'multi',
      addresses: ['2001:DB8:0:0:0:0:0:1', '10.0.0.2', '2001:db8::1'],
      macAddresses: ['AA-BB-CC-DD-EE-FF', 'aabb.ccdd.eeff', '001B213A4F5C'],
      hostnames: ['Web-01.Example.COM.', 'web-01.example.com', 'web'],
    });
    expect(created).toMatchObject({
      ip: '2001:db8::1',
      addresses: ['2001:db8::1', '10.0.0.2'],
      macAddresses: ['aa:bb:cc:dd:ee:ff', '00:1b:21:3a:4f:5c'],
      hostnames: ['web-01.example.com', 'web'],
    });
    expect(await get(created.id)).toEqual(created);
    expect(await identifiers(created.id)).toEqual(
      [
        'host web',
        'host web-01.example.com',
        `ip 620010db8${'0'.repeat(23)}1`,
        'ip 40a000002',
        'mac 00:1b:21:3a:4f:5c',
        'mac aa:bb:cc:dd:ee:ff',
      ].sort(),
    );
  });

  it('on PUT: ip alone replaces the first address, addresses alone set ip, absent lists stay', async () => {
    const { id } = await create({
      name: 'laptop',
      addresses: ['10.0.0.5', '10.0.0.6'],
      hostnames: ['laptop'],
    });
    expect(await put(id, { ip: '10.0.0.7' })).toMatchObject({
      ip: '10.0.0.7',
      addresses: ['10.0.0.7', '10.0.0.6'],
      hostnames: ['laptop'],
    });
    expect(await put(id, { addresses: ['10.0.0.8'] })).toMatchObject({
      ip: '10.0.0.8',
      addresses: ['10.0.0.8'],
    });
    expect(await put(id, { ip: '10.0.0.9', addresses: ['10.0.0.9', '10.0.0.8'] })).toMatchObject({
      ip: '10.0.0.9',
      addresses: ['10.0.0.9', '10.0.0.8'],
    });
    expect(await put(id, { addresses: [], hostnames: [] })).toMatchObject({
      ip: null,
      addresses: [],
      hostnames: [],
    });
    expect(await identifiers(id)).toEqual([]);
    expect(await put(id, { macAddresses: ['aa:bb:cc:00:00:01'] })).toMatchObject({
      macAddresses: ['aa:bb:cc:00:00:01'],
    });
    expect(await identifiers(id)).toEqual(['mac aa:bb:cc:00:00:01']);
  });

  it('refuses bad lists and an ip that is not the first address, writing nothing', async () => {
    const { id } = await create({ name: 'guarded', ip: '10.1.0.1' });
    const refusals: [object, string][] = [
      [{ addresses: ['10.1.0.1', 'nope'] }, 'addresses[1] must be an IP address'],
      [{ macAddresses: ['aa:bb'] }, 'macAddresses[0] must be a MAC address'],
      [{ hostnames: ['a b'] }, 'hostnames[0] must be a DNS name of at most 253 characters'],
      [{ hostnames: null }, 'hostnames must be an array of at most 64 entries'],
      [
        { addresses: Array.from({ length: 65 }, (_, i) => `10.2.0.${i}`) },
        'addresses must be an array of at most 64 entries',
      ],
      [
        { ip: '10.1.0.2', addresses: ['10.1.0.3', '10.1.0.2'] },
        'ip must be the first of addresses when both are given',
      ],
    ];
    for (const [body, error] of refusals) {
      const response = await t.request('PUT', `/api/assets/${id}`, { token: editor, body });
      expect(response.status).toBe(400);
      expectErrorBody(response);
      expect(response.body.error).toBe(error);
      const created = await t.request('POST', '/api/assets', {
        token: editor,
        body: { name: 'x', ...body },
      });
      expect(created.status).toBe(400);
      expect(created.body.error).toBe(error);
    }
    expect(await get(id)).toMatchObject({ ip: '10.1.0.1', addresses: ['10.1.0.1'] });
  });

  it('records the lists in the change history', async () => {
    const { id } = await create({ name: 'tracked', ip: '10.3.0.1' });
    await put(id, { hostnames: ['tracked.example'] });
    const changes = (await t.request('GET', `/api/assets/${id}/changes`, { token: admin })).body;
    const update = changes.find((change: Record<string, any>) => change.action === 'update');
    expect(update.before).toEqual({ hostnames: [] });
    expect(update.after).toEqual({ hostnames: ['tracked.example'] });
  });

  it('takes the lists on ingestion items: created, updated, unchanged when sent again', async () => {
    const item = {
      id: 'ingested-1',
      name: 'ingested',
      addresses: ['10.4.0.1', 'fe80::1'],
      macAddresses: ['AA:BB:CC:DD:EE:01'],
      hostnames: ['Ingested.Example'],
    };
    const first = await ingest({ assets: [item] });
    expect(first.stats.assetsCreated).toBe(1);
    expect(await get('ingested-1')).toMatchObject({
      ip: '10.4.0.1',
      addresses: ['10.4.0.1', 'fe80::1'],
      macAddresses: ['aa:bb:cc:dd:ee:01'],
      hostnames: ['ingested.example'],
    });
    expect(await identifiers('ingested-1')).toHaveLength(4);
    const again = await ingest({ assets: [item] });
    expect(again.stats).toMatchObject({ assetsUpdated: 0, assetsUnchanged: 1 });

    const moved = await ingest({ assets: [{ id: 'ingested-1', ip: '10.4.0.9' }] });
    expect(moved.stats.assetsUpdated).toBe(1);
    expect(moved.changes.assets.updated[0].fields).toEqual({
      ip: ['10.4.0.1', '10.4.0.9'],
      addresses: [
        ['10.4.0.1', 'fe80::1'],
        ['10.4.0.9', 'fe80::1'],
      ],
    });
    expect(await get('ingested-1')).toMatchObject({
      ip: '10.4.0.9',
      addresses: ['10.4.0.9', 'fe80::1'],
      hostnames: ['ingested.example'],
    });
    expect((await identifiers('ingested-1')).filter((row) => row.startsWith('ip 4'))).toEqual([
      'ip 40a040009',
    ]);
    const changes = (await t.request('GET', `/api/assets/ingested-1/changes`, { token: admin }))
      .body;
    expect(
      changes.find((change: Record<string, any>) => change.action === 'create').after,
    ).toMatchObject({
      addresses: ['10.4.0.1', 'fe80::1'],
      macAddresses: ['aa:bb:cc:dd:ee:01'],
      hostnames: ['ingested.example'],
    });
  });

  it('refuses a bad list on an ingestion item, naming it, writing nothing', async () => {
    const response = await t.request('POST', INGEST, {
      token: editor,
      body: {
        assets: [
          { id: 'ok-1', name: 'ok' },
          { id: 'bad-1', name: 'bad', ip: '10.5.0.1', addresses: ['10.5.0.2'] },
        ],
      },
    });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe(
      'assets[1].ip must be the first of addresses when both are given',
    );
    const mac = await t.request('POST', INGEST, {
      token: editor,
      body: { assets: [{ id: 'ok-1', name: 'ok', macAddresses: ['x'] }] },
    });
    expect(mac.body.error).toBe('assets[0].macAddresses[0] must be a MAC address');
    expect((await t.request('GET', '/api/assets/ok-1', { token: editor })).status).toBe(404);
  });

  describe('the list filters cidr, mac and hostname, and search over the lists', () => {
    const { listedIds: ids, exportedIds } = calls;

    beforeAll(async () => {
      await ingest({
        assets: [
          {
            id: 'f-a',
            name: 'filter a',
            addresses: ['172.30.1.1', '2001:db8:30::1'],
            macAddresses: ['02:00:00:00:30:01'],
            hostnames: ['alpha.filter.example'],
          },
          { id: 'f-b', name: 'filter b', addresses: ['172.30.200.9', '172.31.0.1'] },
          {
            id: 'f-c',
            name: 'filter c',
            addresses: ['172.31.5.5'],
            macAddresses: ['02:00:00:00:30:03'],
            hostnames: ['gamma'],
          },
        ],
      });
    });

    it('finds the assets with an address in a prefix, IPv4 or IPv6, any address of the list', async () => {
      expect(await ids('cidr=172.30.0.0/16')).toEqual(['f-a', 'f-b']);
      expect(await ids('cidr=172.31.0.0/16')).toEqual(['f-b', 'f-c']);
      expect(await ids('cidr=172.30.0.0/15')).toEqual(['f-a', 'f-b', 'f-c']);
      expect(await ids('cidr=172.30.200.9/32')).toEqual(['f-b']);
      expect(await ids('cidr=2001:db8:30::/48')).toEqual(['f-a']);
      expect(await ids('cidr=172.30.0.0/16&hostname=gamma')).toEqual([]);
      expect(await exportedIds('cidr=172.31.0.0/16')).toEqual(['f-b', 'f-c']);
    });

    it('finds the assets holding a MAC address in any notation, or a host name in any case', async () => {
      expect(await ids('mac=02-00-00-00-30-01')).toEqual(['f-a']);
      expect(await ids('mac=0200.0000.3003')).toEqual(['f-c']);
      expect(await ids('hostname=ALPHA.filter.example')).toEqual(['f-a']);
      expect(await ids('hostname=gamma&cidr=172.31.0.0/16')).toEqual(['f-c']);
      expect(await ids('hostname=missing')).toEqual([]);
    });

    it('searches the addresses, MAC addresses and host names', async () => {
      expect(await ids('search=172.30.200')).toEqual(['f-b']);
      expect(await ids('search=2001:DB8:30')).toEqual(['f-a']);
      expect(await ids('search=00:30:03')).toEqual(['f-c']);
      expect(await ids('search=ALPHA.FILTER')).toEqual(['f-a']);
      expect(await ids('search=gam')).toEqual(['f-c']);
    });

    it('refuses a malformed prefix, MAC address or host name', async () => {
      const refusals: [string, string][] = [
        ['cidr=172.30.0.0', 'cidr must be an IPv4 or IPv6 prefix, such as 10.20.0.0/16'],
        ['cidr=172.30.0.0/33', 'cidr must be an IPv4 or IPv6 prefix, such as 10.20.0.0/16'],
        ['cidr=host/8', 'cidr must be an IPv4 or IPv6 prefix, such as 10.20.0.0/16'],
        ['mac=02:00', 'mac must be a MAC address'],
        ['hostname=a%20b', 'hostname must be a DNS name of at most 253 characters'],
      ];
      for (const [query, error] of refusals) {
        for (const path of ['/api/assets', '/api/assets/export']) {
          const response = await t.request('GET', `${path}?${query}`, { token: editor });
          expect(response.status).toBe(400);
          expectErrorBody(response);
          expect(response.body.error).toBe(error);
        }
      }
    });
  });
});
