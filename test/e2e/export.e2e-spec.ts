import { describe, expect, it } from '@jest/globals';
import { parse } from 'csv-parse/sync';
import { EXPORT_BATCH_SIZE } from '../../src/common/export/export-text.js';
import { INGEST_PATH } from '../../src/runs/ingest.controller.js';
import { sendScannerBody, storeRows, useIngestionApp } from '../support/ingest-helpers.js';
import { testingPostgres } from '../support/test-database.js';
import { expectErrorBody, type TestApp } from '../support/test-app.js';

/** An export's answer as the client gets it: the text whole, or why reading it failed. */
interface Download {
  status: number;
  headers: Headers;
  text: string;
}

const ASSET_HEADER = [
  'id',
  'name',
  'ip',
  'type',
  'vendor',
  'model',
  'risk_score',
  'site',
  'os_version',
  'addresses',
  'macAddresses',
  'hostnames',
  'tags',
  'services',
  'sources',
  'origin',
  'firstSeenAt',
  'lastSeenAt',
  'createdAt',
  'updatedAt',
];

const FINDING_HEADER = [
  'id',
  'assetId',
  'vulnId',
  'score',
  'severity',
  'status',
  'summary',
  'publishedDate',
  'sources',
  'firstSeenAt',
  'lastSeenAt',
  'fixedAt',
  'reopenedAt',
  'reopenCount',
  'dueAt',
  'overdue',
  'reason',
  'acceptedUntil',
  'triagedBy',
];

/** The UTC days a request made between `before` and now may be named by. */
const daysSince = (before: Date): string[] => [
  before.toISOString().slice(0, 10),
  new Date().toISOString().slice(0, 10),
];

/** A CSV's rows, each its cells. */
const csvRows = (text: string): string[][] => parse(text);

const lines = (text: string): unknown[] =>
  text === ''
    ? []
    : text
        .replace(/\n$/, '')
        .split('\n')
        .map((line) => JSON.parse(line));

describe('Export of assets and findings (CSV and NDJSON)', () => {
  let t: TestApp;
  let admin: string;
  let editor: string;

  useIngestionApp((app) => ({ t, admin, editor } = app), { emptyEach: true });

  const download = async (path: string, token: string | null = editor): Promise<Download> => {
    const response = await fetch(`${t.baseUrl}${path}`, {
      headers: token === null ? {} : { authorization: `Bearer ${token}` },
    });
    return { status: response.status, headers: response.headers, text: await response.text() };
  };
  const exported = async (path: string, token?: string): Promise<Download> => {
    const answer = await download(path, token);
    expect([answer.status, answer.status === 200 ? '' : answer.text]).toEqual([200, '']);
    return answer;
  };
  const ingest = async (body: unknown) => {
    const answer = await t.request('POST', INGEST_PATH, { token: editor, body });
    expect([answer.status, answer.body.error]).toEqual([200, undefined]);
    return answer.body;
  };
  const listed = async (path: string): Promise<any[]> => {
    const answer = await t.request('GET', path, { token: editor });
    expect(answer.status).toBe(200);
    return answer.body;
  };
  /** Every asset the list gives for a query, page by page. */
  const allAssets = async (query: string): Promise<any[]> => {
    const all: any[] = [];
    for (let offset = 0; ; offset += 1000) {
      const page = await listed(`/api/assets?${query}&limit=1000&offset=${offset}`);
      all.push(...(page as any).assets);
      if ((page as any).assets.length < 1000) return all;
    }
  };
  /** Every finding the list gives for a query, page by page. */
  const allFindings = async (query: string): Promise<any[]> => {
    const all: any[] = [];
    for (let offset = 0; ; offset += 1000) {
      const page = await listed(`/api/findings?${query}&limit=1000&offset=${offset}`);
      all.push(...page);
      if (page.length < 1000) return all;
    }
  };

  /** The export's NDJSON for `query` gives each item once, in the order of the list's pages. */
  const expectListOrder = async (
    route: 'assets' | 'findings',
    query: string,
    all: (query: string) => Promise<any[]>,
  ) => {
    const answer = await exported(`/api/${route}/export?format=ndjson&${query}`);
    const ids = lines(answer.text).map((item: any) => item.id);
    const expected = (await all(query)).map((item) => item.id);
    expect([query, ids.length, ids]).toEqual([query, expected.length, expected]);
    expect(new Set(ids).size).toBe(ids.length);
  };
  /** Each query is a 400 `{"error"}` matching its pattern, in JSON, not an attachment. */
  const expectRefusals = async (route: 'assets' | 'findings', cases: [string, RegExp][]) => {
    for (const [query, pattern] of cases) {
      const answer = await download(`/api/${route}/export?${query}`);
      expect([query, answer.status]).toEqual([query, 400]);
      expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
      expect(answer.headers.get('content-disposition')).toBeNull();
      expectErrorBody({ ...answer, body: JSON.parse(answer.text) }, pattern);
    }
  };

  /** Assets whose values a spreadsheet or a careless CSV writer would get wrong. */
  const tricky = () =>
    ingest({
      options: { source: 'nmap-dmz' },
      assets: [
        {
          id: 'fw-1',
          name: '=HYPERLINK("http://x","y")',
          ip: '192.0.2.1',
          type: '-firewall',
          vendor: 'Palo Alto, "Networks"',
          model: 'PA-220\nrev B',
          risk_score: 90,
          site: '@paris',
          os_version: "'=already quoted",
          services: [
            { port: 443, protocol: 'tcp', name: 'https' },
            { port: 53, protocol: 'udp' },
          ],
          vulnerabilities: [{ id: 'CVE-2024-3400', score: 10, summary: '+cmd' }],
        },
        {
          id: 'sw-2',
          name: "'plain",
          type: '+switch',
          vendor: '\tTabbed',
          model: 'line\rbreak',
          os_version: ' spaced ',
        },
      ],
    });

  describe('GET /api/assets/export', () => {
    it('writes the CSV ingestion columns then the export-only ones, quoting formulas', async () => {
      await tricky();
      const manual = await t.request('POST', '/api/assets', {
        token: editor,
        body: { name: 'core', ip: '10.0.0.1', risk_score: 0 },
      });
      expect(manual.status).toBe(201);
      const before = new Date();
      const answer = await exported('/api/assets/export');
      expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(daysSince(before).map((day) => `attachment; filename="assets-${day}.csv"`)).toContain(
        answer.headers.get('content-disposition'),
      );
      expect(answer.text.endsWith('\r\n')).toBe(true);
      const [header, ...rows] = csvRows(answer.text);
      expect(header).toEqual(ASSET_HEADER);
      const assets = await allAssets('');
      expect(rows.map((row) => row[0])).toEqual(assets.map((asset) => asset.id));
      const byId = new Map(
        rows.map((row) => [row[0], Object.fromEntries(row.map((cell, i) => [header[i], cell]))]),
      );
      const fw = (await listed('/api/assets/fw-1')) as any;
      expect(byId.get('fw-1')).toEqual({
        id: 'fw-1',
        name: '\'=HYPERLINK("http://x","y")',
        ip: '192.0.2.1',
        type: "'-firewall",
        vendor: 'Palo Alto, "Networks"',
        model: 'PA-220\nrev B',
        risk_score: '90',
        site: "'@paris",
        os_version: "''=already quoted",
        addresses: '192.0.2.1',
        macAddresses: '',
        hostnames: '',
        tags: '',
        services: '53/udp 443/tcp/https',
        sources: 'nmap-dmz',
        origin: 'ingest',
        firstSeenAt: fw.firstSeenAt,
        lastSeenAt: fw.lastSeenAt,
        createdAt: fw.createdAt,
        updatedAt: fw.updatedAt,
      });
      expect(byId.get('sw-2')).toMatchObject({
        name: "'plain",
        ip: '',
        type: "'+switch",
        vendor: "'\tTabbed",
        model: 'line\rbreak',
        risk_score: '',
        os_version: ' spaced ',
        services: '',
      });
      expect(byId.get(manual.body.id)).toMatchObject({
        name: 'core',
        risk_score: '0',
        sources: '',
        origin: 'manual',
        firstSeenAt: '',
        lastSeenAt: '',
      });
    });

    it('changes nothing when sent back to the CSV ingestion with matchBy=id', async () => {
      await tricky();
      const formula = await t.request('POST', '/api/assets', {
        token: editor,
        body: {
          name: '=1+1',
          site: '',
          vendor: "'@x",
          addresses: ['10.7.0.1', 'fe80::7'],
          macAddresses: ['aa:bb:cc:dd:ee:07'],
          hostnames: ['formula.example', 'formula'],
          // A first tag a spreadsheet would run, and quotes and a backslash in the history's copy.
          tags: ['-internet', 'pci', 'say:"hi"', 'back\\slash', 'café'],
        },
      });
      expect(formula.status).toBe(201);
      const before = await allAssets('');
      const stored = await storeRows(t.dataSource);
      const csv = (await exported('/api/assets/export')).text;
      const answer = await sendScannerBody(t, editor, csv, 'text/csv', '?matchBy=id');
      expect([answer.status, answer.body.error]).toEqual([200, undefined]);
      expect(answer.body.stats).toMatchObject({
        assetsCreated: 0,
        assetsUpdated: 0,
        assetsUnchanged: before.length,
        assetsDeleted: 0,
      });
      expect(answer.body.changes.assets).toEqual({ created: [], updated: [], deleted: [] });
      expect(await allAssets('')).toEqual(before);
      expect(await storeRows(t.dataSource)).toBe(stored);
    });

    it('writes NDJSON: each asset as the API shows it, with the filters and sort of the list', async () => {
      await tricky();
      const before = new Date();
      const answer = await exported('/api/assets/export?format=ndjson&sort=-name&source=nmap-dmz');
      expect(answer.headers.get('content-type')).toBe('application/x-ndjson');
      expect(
        daysSince(before).map((day) => `attachment; filename="assets-${day}.ndjson"`),
      ).toContain(answer.headers.get('content-disposition'));
      expect(lines(answer.text)).toEqual(await allAssets('sort=-name&source=nmap-dmz'));
      expect(lines(answer.text)).toHaveLength(2);
      const none = await exported('/api/assets/export?format=ndjson&type=nothing');
      expect(none.text).toBe('');
      const header = await exported('/api/assets/export?type=nothing');
      expect(header.text).toBe(`${ASSET_HEADER.join(',')}\r\n`);
    });

    it('gives every asset once, in the order of the list, across batches, for each sort and filter', async () => {
      const count = 2 * EXPORT_BATCH_SIZE + 37;
      await ingest({
        options: { source: 'bulk' },
        assets: Array.from({ length: count }, (_, i) => ({
          id: `host-${String((i * 7919) % count).padStart(5, '0')}`,
          name: `host ${i % 50}`,
          // Each its own: an item is matched by an ip an asset holds.
          ip: i % 5 === 0 ? undefined : `10.0.${i >> 8}.${i & 255}`,
          type: ['server', 'switch', 'router'][i % 3],
          vendor: i % 4 === 0 ? undefined : ['Dell', 'HPE', 'Cisco'][i % 3],
          site: i % 9 === 0 ? undefined : `site-${i % 4}`,
          risk_score: i % 3 === 0 ? undefined : i % 11,
          services: i % 2 === 0 ? [{ port: 22, protocol: 'tcp', name: 'ssh' }] : [],
        })),
      });
      for (const query of [
        '',
        'sort=-createdAt',
        'sort=-risk_score',
        'sort=site',
        'sort=-ip',
        'sort=name&type=server',
        'search=host 1&sort=vendor',
        'port=22&sort=-updatedAt',
      ])
        await expectListOrder('assets', query, allAssets);
      const [, ...rows] = csvRows((await exported('/api/assets/export')).text);
      expect(rows).toHaveLength(count);
    });

    it('refuses a bad format, paging and invalid filters with 400 naming them, before any byte', async () => {
      await expectRefusals('assets', [
        ['format=xml', /^format must be one of csv, ndjson$/],
        ['format=csv&format=ndjson', /^format must be given once$/],
        ['limit=10', /^limit is not an accepted property$/],
        ['offset=0', /^offset is not an accepted property$/],
        ['after=abc', /^after is not an accepted property$/],
        ['sort=owner', /^sort must be one of /],
        ['port=http', /port/],
        ['owner=me', /^owner is not an accepted property$/],
      ]);
      const anonymous = await download('/api/assets/export', null);
      expect(anonymous.status).toBe(401);
    });

    it('is open to every signed-in user, a viewer included', async () => {
      await tricky();
      const viewer = await t.createUser('viewer');
      const answer = await exported('/api/assets/export?format=ndjson', viewer.token);
      expect(lines(answer.text)).toHaveLength(2);
    });
  });

  describe('GET /api/findings/export', () => {
    /** Assets with enough findings for several batches: scores from 0 to 10, some without. */
    const manyFindings = async () => {
      const perAsset = 40;
      const assets = Math.ceil((2 * EXPORT_BATCH_SIZE + 11) / perAsset);
      await ingest({
        options: { source: 'scanner' },
        assets: Array.from({ length: assets }, (_, a) => ({
          id: `asset-${a}`,
          name: `asset ${a}`,
          site: a % 2 === 0 ? 'paris' : 'lyon',
          vulnerabilities: Array.from({ length: perAsset }, (_, v) => ({
            id: `CVE-2024-${String(v).padStart(4, '0')}`,
            ...(v % 9 !== 0 && { score: ((v * 7 + a) % 101) / 10 }),
            summary: v % 5 === 0 ? '=formula' : `finding ${v}`,
          })),
        })),
      });
      // Leaving some out fixes them: a fixedAt to sort by.
      await ingest({
        assets: [{ id: 'asset-0', name: 'asset 0', vulnerabilities: [{ id: 'CVE-2024-0001' }] }],
      });
      return assets * perAsset;
    };

    it('writes every field of the answer as CSV, and NDJSON as the API shows it', async () => {
      await manyFindings();
      const [finding] = await allFindings('vulnId=CVE-2024-0003&assetId=asset-3');
      const triaged = await t.request('PATCH', `/api/findings/${finding.id}`, {
        token: editor,
        body: { status: 'false_positive', reason: '-not ours' },
      });
      expect(triaged.status).toBe(200);
      const before = new Date();
      const csv = await exported('/api/findings/export?assetId=asset-3&sort=-score');
      expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(
        daysSince(before).map((day) => `attachment; filename="findings-${day}.csv"`),
      ).toContain(csv.headers.get('content-disposition'));
      const [header, ...rows] = csvRows(csv.text);
      expect(header).toEqual(FINDING_HEADER);
      const listedFindings = await allFindings('assetId=asset-3&sort=-score');
      expect(rows.map((row) => row[0])).toEqual(listedFindings.map((one) => one.id));
      const row = Object.fromEntries(
        rows.find((one) => one[0] === finding.id)!.map((cell, i) => [header[i], cell]),
      );
      const shown = triaged.body;
      expect(row).toEqual({
        id: shown.id,
        assetId: 'asset-3',
        vulnId: 'CVE-2024-0003',
        score: String(shown.score),
        severity: shown.severity,
        status: 'false_positive',
        summary: 'finding 3',
        publishedDate: '',
        sources: 'scanner',
        firstSeenAt: shown.firstSeenAt,
        lastSeenAt: shown.lastSeenAt,
        fixedAt: '',
        reopenedAt: '',
        reopenCount: '0',
        dueAt: shown.dueAt ?? '',
        overdue: 'false',
        reason: "'-not ours",
        acceptedUntil: '',
        triagedBy: shown.triagedBy.email,
      });
      expect(rows.filter((one) => one[6] === "'=formula").length).toBeGreaterThan(0);

      const ndjson = await exported(
        '/api/findings/export?format=ndjson&assetId=asset-3&sort=-score',
      );
      expect(ndjson.headers.get('content-type')).toBe('application/x-ndjson');
      expect(lines(ndjson.text)).toEqual(listedFindings);
    });

    it('gives every finding once, in the order of the list, across batches, for each sort and filter', async () => {
      const count = await manyFindings();
      if (testingPostgres()) {
        // Timestamps with microseconds, as a default of PostgreSQL's gives them, shared by many.
        await t.seed(() =>
          t.dataSource.query(
            "UPDATE findings SET first_seen_at = now() WHERE vuln_id < 'CVE-2024-0020'",
          ),
        );
      }
      for (const query of [
        '',
        'sort=score',
        'sort=dueAt',
        'sort=-dueAt',
        'sort=firstSeenAt',
        'sort=-lastSeenAt',
        'sort=-fixedAt',
        'status=open,fixed&severity=critical,high,none&sort=-score',
        'status=open&severity=high,critical&sort=score',
        'status=fixed,open&sort=-fixedAt',
        'site=paris&minScore=5',
        'overdue=false&source=scanner&sort=firstSeenAt',
      ])
        await expectListOrder('findings', query, allFindings);
      const [, ...rows] = csvRows((await exported('/api/findings/export')).text);
      expect(rows).toHaveLength(count);
    });

    it('refuses a bad format, paging and invalid filters with 400 naming them', async () => {
      await expectRefusals('findings', [
        ['format=json', /^format must be one of csv, ndjson$/],
        ['limit=1', /^limit is not an accepted property$/],
        ['offset=1', /^offset is not an accepted property$/],
        ['status=closed', /^status must be one or more of /],
        ['minScore=11', /minScore/],
        ['sort=name', /^sort must be one of /],
      ]);
    });

    it('answers an error when reading fails before any byte, and cuts the answer short when it fails after', async () => {
      await manyFindings();
      // A stored finding its answer cannot be made from (its triage's actor is not JSON): the
      // last of the default order (no score, the highest id), in the last batch.
      const [last] = (await allFindings('sort=-score')).slice(-1);
      expect(last.score).toBeNull();
      await t.seed(() =>
        t.dataSource.query(`UPDATE findings SET triaged_by = 'not json' WHERE id = '${last.id}'`),
      );
      const first = await download(
        `/api/findings/export?assetId=${last.assetId}&vulnId=${last.vulnId}`,
      );
      expect(first.status).toBe(500);
      expect(first.headers.get('content-disposition')).toBeNull();
      expectErrorBody({ ...first, body: JSON.parse(first.text) });

      const response = await fetch(`${t.baseUrl}/api/findings/export`, {
        headers: { authorization: `Bearer ${admin}` },
      });
      expect(response.status).toBe(200);
      await expect(response.text()).rejects.toThrow();
    });
  });
});
