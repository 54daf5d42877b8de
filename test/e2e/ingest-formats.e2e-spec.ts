import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { INGEST_PATH } from '../../src/runs/ingest.controller.js';
import { sendScannerBody, storeRows, useIngestionApp } from '../support/ingest-helpers.js';
import { expectErrorBody, TestApp, type ApiResponse } from '../support/test-app.js';

const fixture = (path: string) => readFileSync(join(process.cwd(), 'test', 'fixtures', path));

const XML = 'application/xml';
const CSV = 'text/csv';

/** Scanner output posted as a client sends it: its own Content-Type, options in the query. */
describe('ingestion of scanner formats (Nmap XML, Nessus, CSV)', () => {
  let t: TestApp;
  let admin: string;
  let editor: string;

  const send = (
    body: string | Buffer,
    contentType: string,
    query = '',
    headers: Record<string, string> = {},
    token = editor,
  ): Promise<ApiResponse> => sendScannerBody(t, token, body, contentType, query, headers);
  const ingested = async (response: ApiResponse) => {
    expect(response.body).not.toHaveProperty('error');
    expect(response.status).toBe(200);
    return response.body as { runId: string; dryRun: boolean; stats: any; changes: any };
  };
  const assetByIp = async (ip: string) => {
    const response = await t.request('GET', `/api/assets?search=${ip}`, { token: editor });
    return (response.body.assets as any[]).filter((asset) => asset.ip === ip);
  };
  const oneByIp = async (ip: string) => {
    const found = await assetByIp(ip);
    expect(found).toHaveLength(1);
    return found[0];
  };
  const relationsOf = async (id: string) =>
    (await t.request('GET', `/api/relations?assetId=${id}`, { token: editor })).body as any[];
  const store = () => storeRows(t.dataSource);

  useIngestionApp((app) => ({ t, admin, editor } = app), { emptyEach: true });

  describe('the contract mapping', () => {
    it('Nmap: up hosts become assets (MAC vendor, most accurate OS and its class), a trace a route', async () => {
      const answer = await ingested(await send(fixture('nmap/routed-os-trace.xml'), XML));
      // hosts[1] is down; the trace's one hop is the router, a scanned host itself.
      expect(answer.stats).toMatchObject({
        assetsCreated: 2,
        relationsCreated: 1,
        vulnerabilities: 0,
      });
      const router = await oneByIp('192.0.2.2');
      expect(router).toMatchObject({
        name: '192.0.2.2',
        vendor: 'QEMU virtual NIC',
        os_version: 'Linux 5.3 - 5.4',
        type: 'general purpose',
        risk_score: null,
        vulnerabilities: [],
        origin: 'ingest',
      });
      const host = await oneByIp('198.51.100.10');
      expect(host).toMatchObject({ name: '198.51.100.10', os_version: 'Linux 5.3 - 5.4' });
      expect(await assetByIp('198.51.100.99')).toEqual([]);
      expect(await relationsOf(host.id)).toEqual([
        expect.objectContaining({
          sourceAssetId: router.id,
          targetAssetId: host.id,
          type: 'route',
          direction: 'mono',
        }),
      ]);
    });

    it('Nmap: a hop that is no scanned host becomes an asset; vulners CVEs and risk_score = max x 10', async () => {
      const answer = await ingested(await send(fixture('nmap/vulners.xml'), 'text/xml'));
      expect(answer.stats).toMatchObject({
        assetsCreated: 2,
        relationsCreated: 1,
        vulnerabilities: 5,
      });
      const host = await oneByIp('198.51.100.10');
      expect(host).toMatchObject({ name: 'web01.example.test', risk_score: 98 });
      expect(host.vulnerabilities.map((entry: any) => [entry.id, entry.score]).sort()).toEqual(
        [
          ['CVE-2020-15778', 7.8],
          ['CVE-2021-41617', 7],
          ['CVE-2023-38408', 9.8],
          ['CVE-2023-48795', 5.9],
          ['CVE-2023-51385', 6.5],
        ].sort(),
      );
      const hop = await oneByIp('192.0.2.2');
      expect(hop).toMatchObject({ name: 'gw.example.test', vendor: null, risk_score: null });
      expect(await relationsOf(hop.id)).toEqual([
        expect.objectContaining({ sourceAssetId: hop.id, targetAssetId: host.id, type: 'route' }),
      ]);
    });

    it('Nmap: the same scan again matches every host and hop by ip, and leaves the route as it was', async () => {
      await ingested(await send(fixture('nmap/hop-names.xml'), XML, '?source=nmap'));
      const again = await ingested(await send(fixture('nmap/hop-names.xml'), XML, '?source=nmap'));
      expect(again.stats).toMatchObject({
        assetsCreated: 0,
        assetsUnchanged: 2,
        relationsCreated: 0,
        relationsUnchanged: 1,
      });
      // A later scan naming the hop as a host of its own updates that asset; the route stays.
      const answer = await ingested(
        await send(fixture('nmap/routed-os-trace.xml'), XML, '?source=nmap'),
      );
      expect(answer.stats).toMatchObject({
        assetsCreated: 0,
        assetsUpdated: 2,
        relationsUnchanged: 1,
      });
      const router = await oneByIp('192.0.2.2');
      expect(router).toMatchObject({ name: '192.0.2.2', vendor: 'QEMU virtual NIC' });
      expect(await relationsOf(router.id)).toHaveLength(1);
    });

    it('Nmap: an IPv6-only host, matched by ip on the next run (unchanged)', async () => {
      await ingested(await send(fixture('nmap/loopback-ipv6.xml'), XML));
      expect(await oneByIp('::1')).toMatchObject({ name: 'localhost' });
      const again = await ingested(await send(fixture('nmap/loopback-ipv6.xml'), XML));
      expect(again.stats).toMatchObject({ assetsCreated: 0, assetsUnchanged: 1 });
    });

    it('Nessus: FQDN, NetBIOS name or ip as name, the OS, vulnerabilities by CVE or plugin, risk', async () => {
      const answer = await ingested(await send(fixture('nessus/dmz-weekly.nessus'), XML));
      expect(answer.stats).toMatchObject({ assetsCreated: 3, vulnerabilities: 8 });
      const web = await oneByIp('192.0.2.20');
      expect(web).toMatchObject({
        name: 'web01.example.test',
        os_version: 'Linux Kernel 5.10 on Debian 11 (bullseye)',
        risk_score: 98,
      });
      expect(web.vulnerabilities).toContainEqual({
        id: 'CVE-2023-48795',
        score: 5.9,
        summary: 'The remote SSH server is vulnerable to a mitm prefix truncation attack.',
        publishedDate: '2023-12-18',
      });
      expect(web.vulnerabilities).toContainEqual(
        expect.objectContaining({ id: 'NESSUS-153953', score: 5.3 }),
      );
      expect(await oneByIp('192.0.2.21')).toMatchObject({
        name: 'FILESRV01',
        os_version: 'Microsoft Windows Server 2019 Standard',
        risk_score: 81,
      });
      expect(await oneByIp('192.0.2.22')).toMatchObject({
        name: '192.0.2.22',
        risk_score: null,
        vulnerabilities: [],
      });
    });

    it("services: a Nmap host's open ports, a Nessus host's (port, protocol) with its first svc_name", async () => {
      await ingested(await send(fixture('nmap/routed-os-trace.xml'), XML));
      await ingested(await send(fixture('nessus/dmz-weekly.nessus'), XML));
      const bySort = (list: any[]) =>
        [...list].sort((a, b) => a.protocol.localeCompare(b.protocol) || a.port - b.port);
      // The router's closed port is left out.
      expect(bySort((await oneByIp('192.0.2.2')).services)).toEqual([
        { port: 22, protocol: 'tcp', name: 'ssh', product: 'Dropbear sshd', version: '2022.83' },
        {
          port: 80,
          protocol: 'tcp',
          name: 'http',
          product: 'SimpleHTTP/0.6 Python/3.11.7',
          version: null,
        },
      ]);
      const service = (port: number, protocol: string, name: string) => ({
        port,
        protocol,
        name,
        product: null,
        version: null,
      });
      expect(bySort((await oneByIp('192.0.2.20')).services)).toEqual([
        service(22, 'tcp', 'ssh'),
        service(80, 'tcp', 'www'),
        service(443, 'tcp', 'www'),
        service(53, 'udp', 'dns'),
      ]);
      expect(bySort((await oneByIp('192.0.2.21')).services)).toEqual([
        service(445, 'tcp', 'cifs'),
        service(3389, 'tcp', 'msrdp'),
      ]);
    });

    it('CSV: a header of asset fields, a row per asset, empty cells left out, a BOM allowed', async () => {
      const csv =
        '\ufeffid,name,ip,type,risk_score,site\r\n' +
        'sw-1,"core switch, rack 2",10.9.0.1,switch,40,\r\n' +
        ',printer,10.9.0.2,,,hq\r\n';
      const answer = await ingested(await send(csv, CSV));
      expect(answer.stats).toMatchObject({ assetsCreated: 2 });
      const switchAsset = await t.request('GET', '/api/assets/sw-1', { token: editor });
      expect(switchAsset.body).toMatchObject({
        name: 'core switch, rack 2',
        ip: '10.9.0.1',
        type: 'switch',
        risk_score: 40,
        site: null,
      });
      expect(await oneByIp('10.9.0.2')).toMatchObject({ name: 'printer', type: null, site: 'hq' });
    });

    it('records each run with its format', async () => {
      const formats: string[] = [];
      for (const [body, type] of [
        [fixture('nmap/hop-names.xml'), XML],
        [fixture('nessus/dmz-weekly.nessus'), 'text/xml'],
        ['name\nx\n', CSV],
      ] as const) {
        const { runId } = await ingested(await send(body, type, '?source=scan'));
        const run = await t.request('GET', `/api/integrations/runs/${runId}`, { token: editor });
        expect(run.body).toMatchObject({ status: 'succeeded', source: 'scan' });
        formats.push(run.body.format);
      }
      expect(formats).toEqual(['nmap', 'nessus', 'csv']);
    });
  });

  describe('options in the query', () => {
    it('dryRun=true plans and lists the changes, writing nothing', async () => {
      const before = await store();
      const answer = await ingested(
        await send(fixture('nmap/hop-names.xml'), XML, '?dryRun=true&source=nmap-dmz'),
      );
      expect(answer.dryRun).toBe(true);
      expect(answer.stats).toMatchObject({ assetsCreated: 2, relationsCreated: 1 });
      expect(answer.changes.assets.created.map((entry: any) => entry.name)).toEqual([
        'web01.example.test',
        'gw.example.test',
      ]);
      expect(answer.changes.relations.created).toHaveLength(1);
      expect(await store()).toEqual(before);
    });

    it('source and deleteStale: a host the feed no longer reports goes, a hand-made asset stays', async () => {
      const handMade = await t.request('POST', '/api/assets', {
        token: editor,
        body: { name: 'hand-made', ip: '192.0.2.22' },
      });
      expect(handMade.status).toBe(201);
      await ingested(await send(fixture('nessus/dmz-weekly.nessus'), XML, '?source=nessus'));
      // The hand-made asset was matched by ip: the feed now reports it too.
      expect((await oneByIp('192.0.2.22')).sources).toEqual(['nessus']);

      const csv = 'name,ip\nweb01.example.test,192.0.2.20\n';
      const answer = await ingested(await send(csv, CSV, '?source=nessus&deleteStale=true'));
      expect(answer.stats).toMatchObject({ assetsDeleted: 1, assetsUnchanged: 1 });
      expect(await assetByIp('192.0.2.21')).toEqual([]);
      expect(await oneByIp('192.0.2.22')).toMatchObject({ id: handMade.body.id, sources: [] });
    });

    it('maxDeletions: 409 and nothing written when the run would delete more', async () => {
      await ingested(await send(fixture('nessus/dmz-weekly.nessus'), XML, '?source=nessus'));
      const before = await store();
      const response = await send(
        'name,ip\nweb01.example.test,192.0.2.20\n',
        CSV,
        '?source=nessus&deleteStale=true&maxDeletions=1',
      );
      expect(response.status).toBe(409);
      expectErrorBody(response, /would delete 2 assets, more than maxDeletions 1/);
      expect(await store()).toEqual(before);
    });

    it('matchBy=id leaves a stored asset with the same ip alone', async () => {
      await ingested(await send(fixture('nmap/loopback-ipv6.xml'), XML));
      const answer = await ingested(
        await send(fixture('nmap/loopback-ipv6.xml'), XML, '?matchBy=id'),
      );
      expect(answer.stats).toMatchObject({ assetsCreated: 1, assetsUnchanged: 0 });
      expect(await assetByIp('::1')).toHaveLength(2);
      const both = await ingested(await send('name,ip\nx,10.9.9.9\n', CSV, '?matchBy=id,ip'));
      expect(both.stats).toMatchObject({ assetsCreated: 1 });
    });

    it('mode=replace, and deleteStale without source, need the admin role', async () => {
      const response = await send('name\nx\n', CSV, '?mode=replace');
      expect(response.status).toBe(403);
      expectErrorBody(response, /^replace mode requires the admin role$/);
      const stale = await send('name\nx\n', CSV, '?deleteStale=true');
      expect(stale.status).toBe(403);
      expectErrorBody(stale, /^deleteStale without source requires the admin role$/);
      const answer = await ingested(await send('name\nx\n', CSV, '?mode=replace', {}, admin));
      expect(answer.stats).toMatchObject({ assetsCreated: 1 });
    });

    it('refuses a bad option by its name, writing nothing', async () => {
      const before = await store();
      for (const [query, message] of [
        ['?mode=upsert', /^mode must be merge, append or replace$/],
        ['?dryRun=yes', /^dryRun must be true or false$/],
        ['?deleteStale=1', /^deleteStale must be true or false$/],
        ['?maxDeletions=-1', /^maxDeletions must be an integer from 0 to/],
        ['?maxDeletions=ten', /^maxDeletions must be an integer from 0 to/],
        [
          '?matchBy=ip',
          /^matchBy must be a comma-separated list of id, mac, ip and hostname holding id, none twice$/,
        ],
        [
          '?matchBy=id,id',
          /^matchBy must be a comma-separated list of id, mac, ip and hostname holding id, none twice$/,
        ],
        ['?source=', /^source must be 1 to 100 characters long$/],
        ['?mode=append&deleteStale=true', /^deleteStale applies to merge mode only/],
        ['?dryRun=true&dryRun=false', /^dryRun must be given once$/],
        [
          '?format=nessus',
          /^the XML body's root element is <nmaprun> \(nmap\): expected <NessusClientData_v2> \(Nessus\), as format=nessus says$/,
        ],
        ['?format=nmap&format=nmap', /^format must be given once$/],
      ] as const) {
        const response = await send(fixture('nmap/hop-names.xml'), XML, query);
        expect(response.status).toBe(400);
        expectErrorBody(response, message);
      }
      expect(await store()).toEqual(before);
    });

    it('refuses any query parameter with a JSON body', async () => {
      for (const query of ['?dryRun=true', '?source=x', '?anything=1']) {
        const response = await t.request('POST', `${INGEST_PATH}${query}`, {
          token: editor,
          body: { assets: [{ name: 'json' }] },
        });
        expect(response.status).toBe(400);
        expectErrorBody(response, /is not accepted as a query parameter with a JSON body/);
      }
      expect(await assetByIp('json')).toEqual([]);
    });
  });

  describe('refused bodies, nothing written', () => {
    let before: string;
    beforeEach(async () => {
      before = await store();
    });
    const refused = async (response: ApiResponse, status: number, message: RegExp) => {
      expect(response.status).toBe(status);
      expectErrorBody(response, message);
      expect(await store()).toEqual(before);
    };

    it('names a bad item by its host or line', async () => {
      const hosts = (ip: string) =>
        `<nmaprun>${'<host><status state="down"/></host>'.repeat(12)}<host><status state="up"/><address addr="10.0.0.1" addrtype="ipv4"/></host><host><status state="up"/><address addr="${ip}" addrtype="ipv4"/></host></nmaprun>`;
      await refused(
        await send(hosts('10.0.0.999'), XML),
        400,
        /^hosts\[13\]\.ip must be an IP address$/,
      );
      await refused(
        await send('name,ip\na,10.0.0.1\n\n"b\nc",10.0.0.2\nd,nope\n', CSV),
        400,
        /^line 6\.ip must be an IP address$/,
      );
      await refused(
        await send('name,risk_score\na,101\n', CSV),
        400,
        /^line 2\.risk_score must be an integer from 0 to 100$/,
      );
      await refused(await send('ip\n10.0.0.1\n', CSV), 400, /^line 2\.name is required/);
    });

    it('CSV: a header naming no asset field, or a row of another width', async () => {
      await refused(
        await send('name,owner\na,b\n', CSV),
        400,
        /^line 1: "owner" is not an asset field/,
      );
      await refused(
        await send('name,ip\na\n', CSV),
        400,
        /^line 2 has 1 fields; the header has 2$/,
      );
    });

    it('XML: an entity declaration, an external DTD, another root, not well formed', async () => {
      await refused(
        await send(
          '<?xml version="1.0"?><!DOCTYPE nmaprun [<!ENTITY x SYSTEM "file:///etc/passwd">]><nmaprun>&x;</nmaprun>',
          XML,
        ),
        400,
        /declares entities/,
      );
      await refused(
        await send('<!DOCTYPE nmaprun SYSTEM "http://127.0.0.1:1/nmap.dtd"><nmaprun/>', XML),
        400,
        /names an external DTD/,
      );
      await refused(await send('<scan><host/></scan>', XML), 400, /root element is <scan>/);
      await refused(
        await send('<nmaprun><host><status state="up"/></nmaprun>', XML),
        400,
        /not well formed/,
      );
      await refused(await send('', XML), 400, /root element/);
    });

    it('415 for another content type, naming those accepted', async () => {
      await refused(
        await send('name\nx\n', 'text/plain'),
        415,
        /^Content-Type must be application\/json, application\/xml, text\/xml, text\/csv or application\/x-ndjson, got text\/plain$/,
      );
    });

    it('XML and CSV stay refused elsewhere (415)', async () => {
      const response = await t.request('POST', '/api/assets', {
        token: editor,
        rawBody: 'name\nx\n',
        headers: { 'content-type': CSV },
      });
      expect(response.status).toBe(415);
      expectErrorBody(response, /^Content-Type must be application\/json, got text\/csv$/);
    });

    it('refuses a caller before reading: 401 without a token, 403 for a viewer', async () => {
      const viewer = (await t.createUser('viewer')).token;
      const body = fixture('nmap/hop-names.xml');
      await refused(await send(body, XML, '', {}, ''), 401, /./);
      await refused(await send(body, XML, '', {}, viewer), 403, /./);
    });
  });

  describe('Idempotency-Key', () => {
    it('replays the kept answer of an XML body; the same body with other options is 422', async () => {
      const key = { 'idempotency-key': `formats-${Date.now()}` };
      const body = fixture('nmap/hop-names.xml');
      const first = await send(body, XML, '?source=nmap', key);
      expect(first.status).toBe(200);
      const replay = await send(body, XML, '?source=nmap', key);
      expect(replay.status).toBe(200);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.body).toEqual(first.body);
      const other = await send(body, XML, '?source=nmap&dryRun=true', key);
      expect(other.status).toBe(422);
    });
  });
});
