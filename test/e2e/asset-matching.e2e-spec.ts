import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sendScannerBody } from '../support/ingest-helpers.js';
import { TestApp } from '../support/test-app.js';

const INGEST = '/api/integrations/ingest';

/** An Nmap report of hosts given as (ipv4, host name, mac or null). */
const nmapScan = (
  hosts: [string, string, string | null][],
) => `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE nmaprun>
<nmaprun scanner="nmap">${hosts
  .map(
    ([ip, name, mac]) =>
      `<host><status state="up"/><address addr="${ip}" addrtype="ipv4"/>${mac ? `<address addr="${mac}" addrtype="mac"/>` : ''}<hostnames><hostname name="${name}" type="PTR"/></hostnames><ports><port protocol="tcp" portid="22"><state state="open"/><service name="ssh"/></port></ports></host>`,
  )
  .join('')}</nmaprun>`;

describe('ingestion matching by identity: mac, ip, hostname, sites', () => {
  let t: TestApp;
  let editor: string;

  const ingest = async (body: object) => {
    const response = await t.request('POST', INGEST, { token: editor, body });
    expect([response.status, response.body.error]).toEqual([200, undefined]);
    return response.body as Record<string, any>;
  };
  const get = async (id: string) =>
    (await t.request('GET', `/api/assets/${id}`, { token: editor })).body as Record<string, any>;
  const listed = async (query: string) =>
    (await t.request('GET', `/api/assets?limit=1000&${query}`, { token: editor })).body as {
      assets: Record<string, any>[];
      total: number;
    };

  beforeAll(async () => {
    t = await TestApp.start();
    editor = (await t.createUser('editor')).token;
  });
  afterAll(async () => {
    await t.close();
  });

  it('matches by MAC address by default: a laptop moved by DHCP stays one asset', async () => {
    const first = await ingest({
      assets: [{ name: 'laptop', ip: '10.60.0.5', macAddresses: ['aa:bb:cc:60:00:05'] }],
    });
    const [id] = first.changes.assets.created.map((created: { id: string }) => created.id);
    const moved = await ingest({
      assets: [{ name: 'laptop', ip: '10.60.0.99', macAddresses: ['AA-BB-CC-60-00-05'] }],
    });
    expect(moved.stats).toMatchObject({ assetsCreated: 0, assetsUpdated: 1 });
    expect(moved.changes.assets.updated[0].id).toBe(id);
    expect(await get(id)).toMatchObject({ ip: '10.60.0.99', addresses: ['10.60.0.99'] });
  });

  it('matches by any of the addresses, and by host name only when matchBy names it', async () => {
    const first = await ingest({
      assets: [
        { name: 'multi', addresses: ['10.61.0.1', 'fd00:61::1'], hostnames: ['multi.example'] },
      ],
    });
    const id = first.changes.assets.created[0].id;
    const byV6 = await ingest({ assets: [{ name: 'multi', ip: 'fd00:61::1' }] });
    expect(byV6.changes.assets.updated.map((u: { id: string }) => u.id)).toEqual([id]);

    const byNameDefault = await ingest({
      assets: [{ name: 'renamed', hostnames: ['MULTI.example'] }],
    });
    expect(byNameDefault.stats.assetsCreated).toBe(1);
    const byName = await ingest({
      assets: [{ name: 'multi-2', hostnames: ['multi.example'] }],
      options: { matchBy: ['hostname', 'id'] },
    });
    // The earliest created holding it.
    expect(byName.changes.assets.updated.map((u: { id: string }) => u.id)).toEqual([id]);
  });

  it('tries mac before ip whatever the order written, and refuses a matchBy without id', async () => {
    await ingest({
      assets: [
        { id: 'by-ip', name: 'by ip', ip: '10.62.0.1' },
        { id: 'by-mac', name: 'by mac', ip: '10.62.0.2', macAddresses: ['aa:bb:cc:62:00:02'] },
      ],
    });
    const answer = await ingest({
      assets: [{ name: 'x', ip: '10.62.0.1', macAddresses: ['aa:bb:cc:62:00:02'] }],
      options: { matchBy: ['ip', 'mac', 'id'] },
    });
    expect(answer.changes.assets.updated.map((u: { id: string }) => u.id)).toEqual(['by-mac']);
    const refused = await t.request('POST', INGEST, {
      token: editor,
      body: { assets: [], options: { matchBy: ['ip', 'mac'] } },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/^options\.matchBy must be/);
  });

  it('keeps sites apart by ip and hostname, not by mac; an item without a site matches across', async () => {
    await ingest({
      assets: [
        { id: 'site-a', name: 'a', ip: '10.63.0.1', site: 'paris', hostnames: ['shared'] },
        {
          id: 'site-b',
          name: 'b',
          ip: '10.63.0.2',
          site: 'lyon',
          macAddresses: ['aa:bb:cc:63:00:02'],
        },
      ],
    });
    const lyon = await ingest({
      assets: [{ name: 'c', ip: '10.63.0.1', hostnames: ['shared'] }],
      options: { site: 'lyon', matchBy: ['id', 'ip', 'hostname'] },
    });
    expect(lyon.stats).toMatchObject({ assetsCreated: 1, assetsUpdated: 0 });
    const created = lyon.changes.assets.created[0].id;
    expect(await get(created)).toMatchObject({ site: 'lyon', ip: '10.63.0.1' });

    const byMac = await ingest({
      assets: [{ name: 'b', ip: '10.63.0.9', macAddresses: ['aa:bb:cc:63:00:02'], site: 'paris' }],
    });
    expect(byMac.changes.assets.updated.map((u: { id: string }) => u.id)).toEqual(['site-b']);

    const anywhere = await ingest({ assets: [{ name: 'a', ip: '10.63.0.1', vendor: 'v' }] });
    expect(anywhere.changes.assets.updated.map((u: { id: string }) => u.id)).toEqual(['site-a']);
  });

  it('two sites sharing 10.0.0.0/24 with the same Nmap scan ingested for each stay separate', async () => {
    const scan = nmapScan([
      ['10.0.0.1', 'gw', null],
      ['10.0.0.10', 'web', null],
      ['10.0.0.20', 'db', null],
    ]);
    for (const site of ['site-north', 'site-south']) {
      for (let run = 0; run < 2; run++) {
        const answer = await sendScannerBody(t, editor, scan, 'application/xml', `?site=${site}`);
        expect([answer.status, answer.body.error]).toEqual([200, undefined]);
        expect(answer.body.stats).toMatchObject(
          run === 0 ? { assetsCreated: 3 } : { assetsCreated: 0, assetsUnchanged: 3 },
        );
      }
    }
    const inRange = await listed('cidr=10.0.0.0/24');
    expect(inRange.total).toBe(6);
    for (const site of ['site-north', 'site-south']) {
      const ofSite = await listed(`cidr=10.0.0.0/24&site=${site}`);
      expect(ofSite.assets.map((asset) => asset.ip).sort()).toEqual([
        '10.0.0.1',
        '10.0.0.10',
        '10.0.0.20',
      ]);
      expect(ofSite.assets.map((asset) => asset.hostnames[0]).sort()).toEqual(['db', 'gw', 'web']);
    }
  });

  it('fills every address, MAC address and host name from an Nmap scan', async () => {
    const scan = `<?xml version="1.0"?><nmaprun scanner="nmap"><host><status state="up"/><address addr="fd00:64::7" addrtype="ipv6"/><address addr="10.64.0.7" addrtype="ipv4"/><address addr="52:54:00:64:00:07" addrtype="mac" vendor="QEMU"/><hostnames><hostname name="Host7.example" type="user"/><hostname name="host7" type="PTR"/></hostnames></host></nmaprun>`;
    const answer = await sendScannerBody(t, editor, scan, 'application/xml');
    expect(answer.status).toBe(200);
    const id = answer.body.changes.assets.created[0].id;
    expect(await get(id)).toMatchObject({
      name: 'Host7.example',
      ip: '10.64.0.7',
      addresses: ['10.64.0.7', 'fd00:64::7'],
      macAddresses: ['52:54:00:64:00:07'],
      hostnames: ['host7.example', 'host7'],
      vendor: 'QEMU',
    });
  });
});
