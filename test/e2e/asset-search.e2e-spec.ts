import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Asset } from '../../src/database/entities/asset.entity.js';
import { searchCondition } from '../../src/database/repositories/assets.repository.js';
import type { AppDataSource } from '../../src/database/app-data-source.js';
import { INGEST_PATH } from '../../src/ingest/ingest-route.js';
import { TestApp, type ApiResponse } from '../support/test-app.js';
import { testingPostgres } from '../support/test-database.js';

const SEARCHED = ['name', 'ip', 'vendor', 'model', 'site', 'type', 'os_version'] as const;
type Searched = Record<(typeof SEARCHED)[number], string | null>;

/**
 * Assets whose searched columns hold mixed case, LIKE's wildcards, quotes and a backslash, and
 * lower-case letters beyond ASCII (which both databases compare as they are).
 */
const ROWS: (Partial<Searched> & { name: string })[] = [
  { name: 'Web-01', ip: '10.0.0.1', vendor: 'Dell', model: 'R650', site: 'Paris', type: 'server' },
  { name: 'web-02', ip: '10.0.0.12', vendor: 'DELL', site: 'paris-2', os_version: 'Debian 12' },
  { name: 'DB_main', ip: '10.0.1.5', vendor: 'HPE', model: 'DL380', type: 'server' },
  { name: 'db%backup', ip: '192.168.1.20', vendor: 'hp', site: 'Lyon', os_version: 'RHEL 9.3' },
  { name: "O'Brien's laptop", type: 'workstation', vendor: 'Lenovo', site: 'lyon' },
  { name: 'say "hello"', type: 'workstation', model: 'X1 Carbon', os_version: 'Windows 11' },
  { name: 'back\\slash', ip: '2001:db8::1', type: 'router', vendor: 'Cisco' },
  { name: 'café-printer', type: 'printer', site: 'zürich', vendor: 'brother' },
  { name: 'core switch', type: 'switch', vendor: 'Juniper', model: 'EX4300-48P' },
  // Capitals beyond ASCII, among them the Kelvin sign, which lowers to an ASCII k.
  { name: 'ÉCOLE Centrale', site: 'Écully' },
  { name: '\u212a-band radar', vendor: 'Kelvin' },
  { name: 'x', ip: null, type: null, vendor: null, model: null, site: null, os_version: null },
];

/** The contract's meaning, as a reference: a searched column holds the term, ignoring case. */
function matches(asset: Partial<Searched>, term: string): boolean {
  const lowered = term.toLowerCase();
  return SEARCHED.some((column) => asset[column]?.toLowerCase().includes(lowered) ?? false);
}

const TERMS = [
  // Mixed case, whole values and pieces of them.
  'WEB',
  'web-0',
  'Dell',
  'paris',
  'PARIS-2',
  'server',
  'debian 12',
  'rhel 9',
  // LIKE's wildcards and escape are plain characters.
  '%',
  '_',
  '%b',
  'b_m',
  'db%',
  '\\',
  'k\\s',
  // Quotes, FTS5's phrase delimiter among them.
  "'",
  "o'brien",
  '"',
  '"hello"',
  'say "h',
  // One and two characters: no trigram.
  'e',
  'E',
  '1',
  'db',
  '::',
  // Beyond ASCII.
  'café',
  'zürich',
  'é-p',
  // Nothing holds it: within no column, or across two (a name then its ip).
  'web-01 10.0',
  'Web-0110.0.0.1',
  'no such thing',
  'zzz',
  // Dots and digits, as in addresses.
  '10.0.0.1',
  '.0.1',
  '2001:DB8',
];

/** Terms whose answers differ between the databases, as they did before the indexes. */
const BEYOND_ASCII = ['école', 'ÉCOLE', 'Écol', 'k-band', 'K-BAND', '\u212a-band'];

describe('asset search', () => {
  let t: TestApp;
  let admin: string;
  const stored = new Map<string, Partial<Searched>>();

  const search = async (term: string) => {
    const response = await t.request(
      'GET',
      `/api/assets?limit=1000&sort=name&search=${encodeURIComponent(term)}`,
      { token: admin },
    );
    expect(response.status).toBe(200);
    return response.body as { assets: { id: string }[]; total: number };
  };

  /** Every term finds exactly the assets the reference finds, total included. */
  /** The ids the scan the list ran before the indexes finds: LOWER(column) LIKE '%term%'. */
  async function scanned(term: string): Promise<string[]> {
    return (await scannedInOrder(term)).sort();
  }

  /** The same ids, in the list's default order. */
  async function scannedInOrder(term: string): Promise<string[]> {
    const pattern = `%${term.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
    const like = SEARCHED.map((column) => `LOWER(${column}) LIKE :pattern ESCAPE '\\'`);
    const [sql, values] = t.dataSource.driver.escapeQueryWithParameters(
      `SELECT id FROM assets WHERE ${like.join(' OR ')} ORDER BY created_at, id`,
      { pattern },
    );
    const rows = await t.dataSource.query<{ id: string }[]>(sql, values);
    return rows.map((row) => row.id);
  }

  /**
   * Every term finds what the scan finds, total included, and, but for capitals beyond ASCII
   * (which SQLite's LOWER leaves as they are, and PostgreSQL's lowers), what the reference finds.
   */
  async function expectReferenceResults(): Promise<void> {
    for (const term of [...TERMS, ...BEYOND_ASCII]) {
      const expected = await scanned(term);
      if (!BEYOND_ASCII.includes(term))
        expect({ term, ids: expected }).toEqual({
          term,
          ids: [...stored]
            .filter(([, asset]) => matches(asset, term))
            .map(([id]) => id)
            .sort(),
        });
      const found = await search(term);
      expect({ term, ids: found.assets.map((asset) => asset.id).sort() }).toEqual({
        term,
        ids: expected,
      });
      expect({ term, total: found.total }).toEqual({ term, total: expected.length });
    }
  }

  beforeAll(async () => {
    t = await TestApp.start();
    admin = await t.login();
    for (const row of ROWS) {
      const response = await t.request('POST', '/api/assets', { token: admin, body: row });
      expect(response.status).toBe(201);
      stored.set(response.body.id, response.body);
    }
  });

  afterAll(async () => {
    await t.close();
  });

  it('finds exactly the substring matches, whatever the term', async () => {
    await expectReferenceResults();
  });

  it('follows updates and deletes through the API', async () => {
    const [webId] = [...stored].find(([, asset]) => asset.name === 'Web-01')!;
    const updated = await t.request('PUT', `/api/assets/${webId}`, {
      token: admin,
      body: { name: 'Mail-01', vendor: 'Supermicro', site: null },
    });
    expect(updated.status).toBe(200);
    stored.set(webId, updated.body);
    const [dbId] = [...stored].find(([, asset]) => asset.name === 'DB_main')!;
    expect((await t.request('DELETE', `/api/assets/${dbId}`, { token: admin })).status).toBe(204);
    stored.delete(dbId);

    expect((await search('web-01')).total).toBe(0);
    expect((await search('mail-0')).assets.map((asset) => asset.id)).toEqual([webId]);
    expect((await search('supermicro')).total).toBe(1);
    expect((await search('db_m')).total).toBe(0);
    await expectReferenceResults();
  });

  it('follows ingestion: created, changed and rewritten unchanged', async () => {
    const ingest = async (assets: object[]) => {
      const response = await t.request('POST', INGEST_PATH, {
        token: admin,
        body: { options: { mode: 'merge', source: 'search-test' }, assets, relations: [] },
      });
      expect(response.status).toBe(200);
    };
    const fed = [
      { id: 'fed-1', name: 'Fed Web 01', ip: '10.9.0.1', vendor: 'Dell', site: 'Paris' },
      { id: 'fed-2', name: 'fed_db', os_version: 'Ubuntu 24.04', type: 'server' },
    ];
    await ingest(fed);
    for (const asset of fed) stored.set(asset.id, asset);
    expect((await search('fed web')).assets.map((asset) => asset.id)).toEqual(['fed-1']);
    await expectReferenceResults();

    // The same again (every asset rewritten as it was), then one renamed.
    await ingest(fed);
    const renamed = [{ ...fed[0], name: 'Fed Mail 01' }, fed[1]];
    await ingest(renamed);
    stored.set('fed-1', renamed[0]);
    expect((await search('fed web')).total).toBe(0);
    expect((await search('FED MAIL')).assets.map((asset) => asset.id)).toEqual(['fed-1']);
    expect((await search('ubuntu 24')).assets.map((asset) => asset.id)).toEqual(['fed-2']);
    await expectReferenceResults();
  });

  it('combines with the other filters and pages', async () => {
    const body = await search('e');
    const servers = await t.request('GET', `/api/assets?search=e&type=server&limit=1&sort=name`, {
      token: admin,
    });
    const expected = body.assets.filter((asset) => (asset as Partial<Searched>).type === 'server');
    expect(servers.body.total).toBe(expected.length);
    expect(servers.body.assets.map((asset: { id: string }) => asset.id)).toEqual([expected[0].id]);
  });

  it('pages in the list order by cursor and by offset, for few matches and for many', async () => {
    // Many matches of a small store lead SQLite to walk the order's index, few to read them all.
    for (const term of ['web', 'paris', '10.0', 'ubuntu', 'fed mail', 'no such thing']) {
      const expected = await scannedInOrder(term);
      const byCursor: string[] = [];
      let path: string | undefined = `/api/assets?limit=2&search=${encodeURIComponent(term)}`;
      while (path) {
        const page: ApiResponse = await t.request('GET', path, { token: admin });
        expect(page.status).toBe(200);
        expect({ term, total: page.body.total }).toEqual({ term, total: expected.length });
        byCursor.push(...page.body.assets.map((asset: { id: string }) => asset.id));
        path = /^<([^>]+)>; rel="next"$/.exec(page.headers.get('link') ?? '')?.[1];
      }
      expect({ term, ids: byCursor }).toEqual({ term, ids: expected });
      const offset = await t.request(
        'GET',
        `/api/assets?limit=2&offset=1&search=${encodeURIComponent(term)}`,
        { token: admin },
      );
      expect({ term, ids: offset.body.assets.map((asset: { id: string }) => asset.id) }).toEqual({
        term,
        ids: expected.slice(1, 3),
      });
    }
  });

  it("is answered from the search index, the query's plan shows", async () => {
    const { condition, parameters } = searchCondition(
      (t.dataSource as AppDataSource).dialect,
      'paris',
    );
    const [sql, values] = t.dataSource.driver.escapeQueryWithParameters(
      `SELECT id FROM assets WHERE ${condition}`,
      parameters,
    );
    if (t.dataSource.options.type === 'postgres') {
      // A store this small is cheaper to scan: the planner is told not to, to show it can use
      // the index for this very condition.
      const runner = t.dataSource.createQueryRunner();
      try {
        await runner.startTransaction();
        await runner.query('SET LOCAL enable_seqscan = off');
        const plan: { 'QUERY PLAN': string }[] = await runner.query(`EXPLAIN ${sql}`, values);
        await runner.rollbackTransaction();
        expect(plan.map((row) => row['QUERY PLAN']).join('\n')).toContain('IDX_assets_search');
      } finally {
        await runner.release();
      }
    } else {
      const plan = await t.dataSource.query<{ detail: string }[]>(
        `EXPLAIN QUERY PLAN ${sql}`,
        values,
      );
      const details = plan.map((row) => row.detail).join('\n');
      expect(details).toMatch(/assets_search VIRTUAL TABLE INDEX \d+:M/);
      expect(details).toMatch(/SEARCH assets USING INTEGER PRIMARY KEY \(rowid=\?\)/);
      expect(details).not.toMatch(/SCAN assets\b/);
    }
  });

  // PostgreSQL's GIN index is part of the table's own storage; SQLite's FTS5 table is not.
  (testingPostgres() ? it.skip : it)(
    'keeps the FTS5 table in step with assets after every write above: a row per asset',
    async () => {
      // FTS5's own check of its index; it throws when the index is damaged.
      await t.dataSource.query(
        `INSERT INTO assets_search(assets_search, rank) VALUES ('integrity-check', 0)`,
      );
      const rowids = async (table: string) =>
        (
          await t.dataSource.query<{ rowid: number }[]>(`SELECT rowid FROM ${table} ORDER BY rowid`)
        ).map((row) => row.rowid);
      expect(await rowids('assets_search')).toEqual(await rowids('assets'));
    },
  );

  it('finds an asset written without the API, by the triggers', async () => {
    await t.seed(() =>
      t.dataSource.getRepository(Asset).insert({
        id: 'orm-1',
        name: 'Written By TypeORM',
        createdAt: new Date(),
        updatedAt: new Date(),
      }),
    );
    stored.set('orm-1', { name: 'Written By TypeORM' });
    expect((await search('by typeorm')).assets.map((asset) => asset.id)).toEqual(['orm-1']);
  });
});
