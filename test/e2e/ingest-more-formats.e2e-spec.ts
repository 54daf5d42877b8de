import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { sendScannerBody, storeRows, useIngestionApp } from '../support/ingest-helpers.js';
import { expectErrorBody, TestApp, type ApiResponse } from '../support/test-app.js';

const fixture = (path: string) => readFileSync(join(process.cwd(), 'test', 'fixtures', path));

const XML = 'application/xml';
const JSON_TYPE = 'application/json';
const NDJSON = 'application/x-ndjson';

/** A body of each new format, as a CI job sends it: its Content-Type, `?format=` where needed. */
const FORMATS = {
  greenbone: { body: () => fixture('greenbone/dmz-report.xml'), type: XML, query: '' },
  masscan: { body: () => fixture('masscan/documentation-ranges.xml'), type: XML, query: '' },
  'masscan -oJ': {
    body: () => fixture('masscan/documentation-ranges.json'),
    type: JSON_TYPE,
    query: '?format=masscan',
  },
  nuclei: { body: () => fixture('nuclei/results.jsonl'), type: NDJSON, query: '?format=nuclei' },
  trivy: {
    body: () => fixture('trivy/shop-web-image.json'),
    type: JSON_TYPE,
    query: '?format=trivy',
  },
} as const;
type FormatName = keyof typeof FORMATS;
const NAMES = Object.keys(FORMATS) as FormatName[];

/** Greenbone, masscan, Nuclei and Trivy output (section "Scanner output" of the README). */
describe('ingestion of Greenbone, masscan, Nuclei and Trivy output', () => {
  let t: TestApp;
  let editor: string;

  const send = (
    body: string | Buffer,
    contentType: string,
    query = '',
    headers: Record<string, string> = {},
  ): Promise<ApiResponse> => sendScannerBody(t, editor, body, contentType, query, headers);
  const sendFormat = (name: FormatName, extra = '', headers: Record<string, string> = {}) => {
    const { body, type, query } = FORMATS[name];
    const joined = query ? `${query}${extra ? `&${extra}` : ''}` : extra ? `?${extra}` : '';
    const bytes = headers['content-encoding'] === 'gzip' ? gzipSync(body()) : body();
    return send(bytes, type, joined, headers);
  };
  const ingested = async (response: ApiResponse) => {
    expect(response.body).not.toHaveProperty('error');
    expect(response.status).toBe(200);
    return response.body as { runId: string; dryRun: boolean; stats: any; changes: any };
  };
  const assets = async () =>
    ((await t.request('GET', '/api/assets?limit=1000', { token: editor })).body.assets as any[])
      .map(({ name, ip, type, os_version, services, vulnerabilities, id }) => ({
        id,
        name,
        ip,
        type,
        os_version,
        services: (services as any[]).map((service) => `${service.port}/${service.protocol}`),
        vulnerabilities: (vulnerabilities as any[])
          .map((entry) => `${entry.id} ${entry.score}`)
          .sort(),
      }))
      .sort((a, b) => a.name.localeCompare(b.name));
  const runOf = async (runId: string) =>
    (await t.request('GET', `/api/integrations/runs/${runId}`, { token: editor })).body;
  const store = () => storeRows(t.dataSource);
  const refused = async (response: ApiResponse, status: number, message: RegExp) => {
    const before = await store();
    expect(response.status).toBe(status);
    expectErrorBody(response, message);
    expect(await store()).toEqual(before);
  };

  useIngestionApp((app) => ({ t, editor } = app), { emptyEach: true });

  describe('the mapping of each format', () => {
    it('Greenbone: an asset per result address, its ports as services, a vulnerability per CVE (else OPENVAS-oid) of each result above 0', async () => {
      const answer = await ingested(await sendFormat('greenbone'));
      expect(answer.stats).toMatchObject({ assetsCreated: 2, vulnerabilities: 4 });
      expect(await assets()).toEqual([
        {
          id: expect.any(String),
          name: '198.51.100.30',
          ip: '198.51.100.30',
          type: null,
          os_version: null,
          services: [],
          vulnerabilities: ['OPENVAS-1.3.6.1.4.1.25623.1.0.80091 2.6'],
        },
        {
          id: expect.any(String),
          name: 'web01.example.test',
          ip: '192.0.2.20',
          type: null,
          os_version: null,
          services: ['22/tcp', '443/tcp'],
          vulnerabilities: ['CVE-2021-41773 7.5', 'CVE-2021-42013 7.5', 'CVE-2023-48795 5.9'],
        },
      ]);
      const web = (await t.request('GET', '/api/assets?search=web01', { token: editor })).body
        .assets[0];
      expect(web.vulnerabilities).toContainEqual({
        id: 'CVE-2021-42013',
        score: 7.5,
        summary: 'Apache HTTP Server 2.4.49 Path Traversal and Remote Code Execution Vulnerability',
        publishedDate: null,
      });
      expect((await runOf(answer.runId)).format).toBe('greenbone');
    });

    it('Greenbone: a bare report as text/xml, and ?format=greenbone naming it', async () => {
      const report =
        '<report id="r"><report id="r"><results><result id="1"><name>x</name><host>192.0.2.99</host><port>80/tcp</port><nvt oid="1.3.6.1.4.1.25623.1.0.9"/><severity>4.0</severity></result></results></report></report>';
      const answer = await ingested(await send(report, 'text/xml', '?format=greenbone'));
      expect(answer.stats).toMatchObject({ assetsCreated: 1, vulnerabilities: 1 });
      expect((await runOf(answer.runId)).format).toBe('greenbone');
    });

    it('masscan: -oX and -oJ give the same asset per address, its open ports as services, no vulnerabilities', async () => {
      const xml = await ingested(await sendFormat('masscan'));
      expect(xml.stats).toMatchObject({ assetsCreated: 2, vulnerabilities: 0 });
      const expected = [
        {
          id: expect.any(String),
          name: '192.0.2.10',
          ip: '192.0.2.10',
          type: null,
          os_version: null,
          services: ['22/tcp', '443/tcp'],
          vulnerabilities: [],
        },
        {
          id: expect.any(String),
          name: '198.51.100.7',
          ip: '198.51.100.7',
          type: null,
          os_version: null,
          services: ['22/tcp', '53/udp'],
          vulnerabilities: [],
        },
      ];
      expect(await assets()).toEqual(expected);
      const json = await ingested(await sendFormat('masscan -oJ'));
      expect(json.stats).toMatchObject({ assetsCreated: 0, assetsUnchanged: 2 });
      expect(await assets()).toEqual(expected);
      expect((await runOf(xml.runId)).format).toBe('masscan');
      expect((await runOf(json.runId)).format).toBe('masscan');
    });

    it('masscan: a port scan keeps the vulnerabilities another scanner reported', async () => {
      await ingested(
        await send(
          '<nmaprun scanner="masscan"><host><address addr="192.0.2.10" addrtype="ipv4"/></host></nmaprun>',
          XML,
        ),
      );
      await ingested(
        await send(
          '{"template-id":"t","ip":"192.0.2.10","info":{"name":"n","severity":"high"}}\n',
          NDJSON,
          '?format=nuclei',
        ),
      );
      await ingested(await sendFormat('masscan'));
      const [host] = (await assets()).filter((asset) => asset.ip === '192.0.2.10');
      expect(host.vulnerabilities).toEqual(['NUCLEI-t 7']);
    });

    it('Nuclei: an asset per ip (else host name), a vulnerability per result, as JSON Lines or application/json', async () => {
      const answer = await ingested(await sendFormat('nuclei'));
      expect(answer.stats).toMatchObject({ assetsCreated: 3, vulnerabilities: 5 });
      expect(await assets()).toEqual([
        {
          id: expect.any(String),
          name: '198.51.100.40',
          ip: '198.51.100.40',
          type: null,
          os_version: null,
          services: [],
          vulnerabilities: ['NUCLEI-exposed-redis 9'],
        },
        {
          id: expect.any(String),
          name: 'ssh.example.test',
          ip: '198.51.100.30',
          type: null,
          os_version: null,
          services: [],
          vulnerabilities: ['CVE-2023-48795 5.9'],
        },
        {
          id: expect.any(String),
          name: 'www.example.test',
          ip: '192.0.2.20',
          type: null,
          os_version: null,
          services: [],
          vulnerabilities: [
            'CVE-2021-41773 7.5',
            'NUCLEI-http-missing-security-headers 0',
            'NUCLEI-weak-cipher-suites 1',
          ],
        },
      ]);
      const again = await ingested(
        await send(fixture('nuclei/results.jsonl'), JSON_TYPE, '?format=nuclei'),
      );
      expect(again.stats).toMatchObject({ assetsCreated: 0, assetsUnchanged: 3 });
      expect((await runOf(again.runId)).format).toBe('nuclei');
    });

    it('Trivy: one container-image asset, id and name the artifact, its OS, a vulnerability per distinct id', async () => {
      const answer = await ingested(await sendFormat('trivy'));
      expect(answer.stats).toMatchObject({ assetsCreated: 1, vulnerabilities: 4 });
      expect(await assets()).toEqual([
        {
          id: 'registry.example.test/shop/web:1.4.2',
          name: 'registry.example.test/shop/web:1.4.2',
          ip: null,
          type: 'container-image',
          os_version: 'alpine 3.19.1',
          services: [],
          vulnerabilities: [
            'CVE-2023-6129 7.1',
            'CVE-2024-2511 1',
            'CVE-2024-5535 9.1',
            'GHSA-952p-6rrq-rcjv 5.3',
          ],
        },
      ]);
      const image = await t.request(
        'GET',
        `/api/assets/${encodeURIComponent('registry.example.test/shop/web:1.4.2')}`,
        { token: editor },
      );
      expect(image.body.vulnerabilities).toContainEqual({
        id: 'CVE-2024-5535',
        score: 9.1,
        summary: 'openssl: SSL_select_next_proto buffer overread',
        publishedDate: '2024-06-27',
      });
      // The next scan of the image matches it by id.
      const again = await ingested(await sendFormat('trivy'));
      expect(again.stats).toMatchObject({ assetsCreated: 0, assetsUnchanged: 1 });
      expect((await runOf(again.runId)).format).toBe('trivy');
    });

    it('a JSON body without ?format= stays the native payload', async () => {
      const response = await send(fixture('trivy/shop-web-image.json'), JSON_TYPE);
      expect(response.status).toBe(400);
      expectErrorBody(response, /SchemaVersion/);
      const native = await ingested(
        await send(JSON.stringify({ assets: [{ name: 'native' }] }), JSON_TYPE),
      );
      expect((await runOf(native.runId)).format).toBe('json');
    });
  });

  describe('errors name the item, and nothing is written', () => {
    it('Greenbone results[i], masscan hosts[i], Nuclei results[line], Trivy hosts[i]', async () => {
      const result = (ip: string) =>
        `<result><name>x</name><host>${ip}</host><port>80/tcp</port><severity>1.0</severity></result>`;
      await refused(
        await send(
          `<report><report><results>${result('192.0.2.1')}${result('192.0.2.1')}${result('192.0.2.999')}</results></report></report>`,
          XML,
        ),
        400,
        /^results\[2\]\.ip must be an IP address$/,
      );
      await refused(
        await send(
          '[{"ip":"192.0.2.1","ports":[]},{"ip":"192.0.2.2","ports":[{"port":70000,"proto":"tcp","status":"open"}]}]',
          JSON_TYPE,
          '?format=masscan',
        ),
        400,
        /^hosts\[1\]\.services\[0\]\.port must be an integer from 1 to 65535$/,
      );
      const line = (ip: string, score: unknown) =>
        JSON.stringify({
          'template-id': 't',
          ip,
          info: { name: 'n', severity: 'low', classification: { 'cvss-score': score } },
        });
      await refused(
        await send(
          [line('192.0.2.1', 5), line('192.0.2.2', 5), line('192.0.2.3', 11)].join('\n'),
          NDJSON,
          '?format=nuclei',
        ),
        400,
        /^results\[2\]\.vulnerabilities\[0\]\.score must be from 0 to 10$/,
      );
      const report = (name: string, date: string) =>
        JSON.stringify({
          SchemaVersion: 2,
          ArtifactName: name,
          ArtifactType: 'container_image',
          Results: [{ Vulnerabilities: [{ VulnerabilityID: 'CVE-2024-1', PublishedDate: date }] }],
        });
      await refused(
        await send(
          `${report('a:1', '2024-01-02T00:00:00Z')}\n${report('b:1', 'last year')}`,
          JSON_TYPE,
          '?format=trivy',
        ),
        400,
        /^hosts\[1\]\.vulnerabilities\[0\]\.publishedDate must be/,
      );
    });

    it('a body refused whole: not JSON, not a Trivy report, a line that is no object', async () => {
      await refused(
        await send('{"ip": "192.0.2.1"', NDJSON, '?format=nuclei'),
        400,
        /^the Nuclei body is not valid JSON: it ends inside a value$/,
      );
      await refused(
        await send('[]', JSON_TYPE, '?format=trivy'),
        400,
        /^hosts\[0\] must be a Trivy report object/,
      );
      await refused(
        await send('{"ip": "192.0.2.1"}\n[1]\n', NDJSON, '?format=nuclei'),
        400,
        /^results\[1\] must be a JSON object$/,
      );
    });

    it('an unknown format, a media type the format is never sent as, a root of another format', async () => {
      await refused(
        await send('{}', JSON_TYPE, '?format=openvas'),
        400,
        /^format must be one of nmap, nessus, csv, greenbone, masscan, nuclei, trivy$/,
      );
      await refused(
        await send('name\nx\n', 'text/csv', '?format=trivy'),
        400,
        /^format=trivy takes a body of type application\/json, not text\/csv$/,
      );
      await refused(
        await send(fixture('masscan/documentation-ranges.xml'), XML, '?format=nmap'),
        400,
        /^the XML body's root element is <nmaprun> \(masscan\): expected <nmaprun> \(Nmap\), as format=nmap says$/,
      );
      await refused(
        await send(fixture('nuclei/results.jsonl'), NDJSON),
        400,
        /^an application\/x-ndjson body needs \?format= to name its format \(nuclei\)$/,
      );
    });
  });

  describe.each(NAMES)('%s with the query options', (name) => {
    it('takes a gzip body', async () => {
      const answer = await ingested(await sendFormat(name, '', { 'content-encoding': 'gzip' }));
      expect(answer.stats.assetsCreated).toBeGreaterThan(0);
      expect((await assets()).length).toBe(answer.stats.assetsCreated);
    });

    it('dryRun=true plans the run and writes nothing', async () => {
      const before = await store();
      const answer = await ingested(await sendFormat(name, 'dryRun=true&source=ci'));
      expect(answer.dryRun).toBe(true);
      expect(answer.stats.assetsCreated).toBeGreaterThan(0);
      expect(answer.changes.assets.created.length).toBe(answer.stats.assetsCreated);
      expect(await store()).toEqual(before);
      expect((await runOf(answer.runId)).dryRun).toBe(true);
    });

    it('maxFixes refuses a run that would fix more findings (masscan fixes none)', async () => {
      await ingested(await sendFormat(name, 'source=ci'));
      if (name.startsWith('masscan')) {
        // masscan reports no vulnerabilities, so it leaves the findings alone.
        const again = await ingested(await sendFormat(name, 'source=ci&maxFixes=0'));
        expect(again.stats.findingsFixed).toBe(0);
        return;
      }
      const { body, type, query } = FORMATS[name];
      const without = withOneFindingLess(name, body().toString());
      const options = `${query}${query ? '&' : '?'}source=ci`;
      const before = await store();
      const response = await send(without, type, `${options}&maxFixes=0`);
      expect(response.status).toBe(409);
      expectErrorBody(response, /would fix 1 findings?, more than maxFixes 0$/);
      expect(await store()).toEqual(before);
      const allowed = await ingested(await send(without, type, `${options}&maxFixes=1`));
      expect(allowed.stats.findingsFixed).toBe(1);
    });
  });
});

/** The fixture's scan with one vulnerability of one host no longer reported. */
function withOneFindingLess(name: FormatName, text: string): string {
  switch (name) {
    case 'greenbone':
      // The Apache result keeps its other CVE.
      return text.replace('<ref type="cve" id="cve-2021-41773"/>', '');
    case 'nuclei':
      // The host keeps its other results.
      return text
        .split('\n')
        .filter((line) => !line.includes('"template-id":"http-missing-security-headers"'))
        .join('\n');
    default: {
      const report = JSON.parse(text);
      for (const result of report.Results) {
        result.Vulnerabilities = result.Vulnerabilities?.filter(
          (entry: { VulnerabilityID: string }) => entry.VulnerabilityID !== 'CVE-2024-2511',
        );
      }
      return JSON.stringify(report);
    }
  }
}
