import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Buffer } from 'node:buffer';
import { Asset } from '../../src/database/entities/asset.entity.js';
import { ASSET_SORT_FIELDS } from '../../src/common/field-rules/inventory-values.js';
import { INGEST_PATH } from '../../src/ingest/ingest-route.js';
import { expectErrorBody, TestApp, type ApiResponse } from '../support/test-app.js';
import { testingPostgres } from '../support/test-database.js';

const SORTS = ASSET_SORT_FIELDS.flatMap((field) => [field, `-${field}`]);
const COUNT = 23;

/** The link of `rel="next"` in a Link header, if any. */
function nextLink(response: ApiResponse): string | undefined {
  const header = response.headers.get('link');
  if (header === null) return undefined;
  const match = /^<([^>]+)>; rel="next"$/.exec(header);
  expect(match).not.toBeNull();
  return match![1];
}

/** A cursor as the service makes them, of any content. */
const cursor = (content: unknown) => Buffer.from(JSON.stringify(content)).toString('base64url');
const cursorOf = (link: string) => new URL(link, 'http://x').searchParams.get('after')!;

describe('asset list paging', () => {
  let t: TestApp;
  let admin: string;

  const get = (path: string) => t.request('GET', path, { token: admin });
  const ids = (response: ApiResponse) => response.body.assets.map((a: { id: string }) => a.id);

  /** Every asset of `query`, by offset in pages of `limit`. */
  async function walkByOffset(query: string, limit: number): Promise<string[]> {
    const all: string[] = [];
    for (let offset = 0; ; offset += limit) {
      const page = await get(`/api/assets?${query}&limit=${limit}&offset=${offset}`);
      expect(page.status).toBe(200);
      all.push(...ids(page));
      if (page.body.assets.length < limit) return all;
    }
  }

  /** Every asset of `query`, following the next links from the first page. */
  async function walkByCursor(query: string, limit: number): Promise<string[]> {
    const all: string[] = [];
    let path: string | undefined = `/api/assets?${query}&limit=${limit}`;
    let total: number | undefined;
    while (path !== undefined) {
      const page = await get(path);
      expect(page.status).toBe(200);
      expect(page.body.assets.length).toBeLessThanOrEqual(limit);
      total ??= page.body.total;
      // The total is the filtered one on every page, wherever the cursor stands.
      expect(page.body.total).toBe(total);
      all.push(...ids(page));
      path = nextLink(page);
      if (path !== undefined) expect(page.body.assets).toHaveLength(limit);
    }
    expect(all).toHaveLength(total!);
    return all;
  }

  beforeAll(async () => {
    t = await TestApp.start();
    admin = await t.login();
    // Ties in every sort key: a few values each, nulls among them, shared timestamps.
    const shared = new Date('2026-05-06T07:08:09.123Z');
    await t.seed(() =>
      t.dataSource.getRepository(Asset).insert(
        Array.from({ length: COUNT }, (_, i) => ({
          id: `a-${String((i * 7) % COUNT).padStart(2, '0')}`,
          name: `host ${i % 4}`,
          ip: i % 5 === 0 ? null : `10.0.0.${i % 3}`,
          type: i % 6 === 0 ? null : ['server', 'switch'][i % 2],
          vendor: i % 4 === 0 ? null : ['Dell', 'HPE', 'Cisco'][i % 3],
          site: i % 7 === 0 ? null : `site-${i % 2}`,
          riskScore: i % 3 === 0 ? null : (i % 4) * 10,
          createdAt: i % 5 === 0 ? shared : new Date(shared.getTime() + (i % 3) * 1000),
          updatedAt: i % 2 === 0 ? shared : new Date(shared.getTime() + i),
        })),
      ),
    );
    // Timestamps with microseconds, as a default of PostgreSQL's gives them.
    const now = testingPostgres() ? 'now()' : "strftime('%Y-%m-%d %H:%M:%f', 'now')";
    for (const id of ['b-1', 'b-2'])
      await t.seed(() =>
        t.dataSource.query(
          `INSERT INTO assets (id, name, created_at, updated_at) VALUES ('${id}', 'host 1', ${now}, ${now})`,
        ),
      );
  });

  afterAll(async () => {
    await t.close();
  });

  it.each(SORTS)('walks every asset by cursor as by offset, sorted by %s', async (sort) => {
    const byOffset = await walkByOffset(`sort=${sort}`, 4);
    expect(byOffset).toHaveLength(COUNT + 2);
    expect(await walkByCursor(`sort=${sort}`, 4)).toEqual(byOffset);
    expect(await walkByCursor(`sort=${sort}`, 1)).toEqual(byOffset);
  });

  it('walks by cursor with the default sort and with filters', async () => {
    expect(await walkByCursor('', 5)).toEqual(await walkByOffset('', 5));
    for (const query of [
      'type=server&sort=-risk_score',
      'search=host%201&sort=vendor',
      'site=site-1',
    ]) {
      const byOffset = await walkByOffset(query, 3);
      expect(byOffset.length).toBeGreaterThan(3);
      expect(await walkByCursor(query, 3)).toEqual(byOffset);
    }
  });

  it('links the next page from an offset page, keeping the query but the offset', async () => {
    const page = await get('/api/assets?limit=2&offset=4&sort=-vendor&type=server');
    const link = nextLink(page)!;
    const query = new URL(link, 'http://x').searchParams;
    expect(link.startsWith('/api/assets?')).toBe(true);
    expect(query.get('offset')).toBeNull();
    expect([query.get('limit'), query.get('sort'), query.get('type')]).toEqual([
      '2',
      '-vendor',
      'server',
    ]);
    const after = await get(link);
    const byOffset = await get('/api/assets?limit=2&offset=6&sort=-vendor&type=server');
    expect(ids(after)).toEqual(ids(byOffset));
  });

  it('sends no Link on the last page, nor when nothing matches', async () => {
    const last = await get(`/api/assets?limit=${COUNT + 2}`);
    expect(last.body.assets).toHaveLength(COUNT + 2);
    expect(last.headers.get('link')).toBeNull();
    const none = await get('/api/assets?search=nothing-holds-this');
    expect(none.body).toEqual({ assets: [], total: 0 });
    expect(none.headers.get('link')).toBeNull();
    // One asset short of the end: a link.
    expect((await get(`/api/assets?limit=${COUNT + 1}`)).headers.get('link')).not.toBeNull();
  });

  it.each([
    ['not base64url JSON', '!!!', 'createdAt'],
    ['JSON of another shape', cursor({ a: 1 }), 'createdAt'],
    ['a cursor of another sort', cursor(['name', 'host 1', 'a-01']), 'createdAt'],
    [
      'a timestamp out of range',
      cursor(['createdAt', '2026-02-30 00:00:00.000', 'a']),
      'createdAt',
    ],
    ['a timestamp that is not one', cursor(['createdAt', 'yesterday', 'a']), 'createdAt'],
    ['a null key of a required column', cursor(['createdAt', null, 'a']), 'createdAt'],
    ['a NUL in the id', cursor(['createdAt', '2026-01-01 00:00:00', 'a\u0000']), 'createdAt'],
    ['an empty id', cursor(['createdAt', '2026-01-01 00:00:00', '']), 'createdAt'],
    ['a risk score that is no integer', cursor(['risk_score', 'ten', 'a']), 'risk_score'],
    ['an empty cursor', '', 'createdAt'],
  ])('answers 400 naming after for %s', async (_case, after, sort) => {
    const response = await get(`/api/assets?sort=${sort}&after=${encodeURIComponent(after)}`);
    expect(response.status).toBe(400);
    expectErrorBody(response, /\bafter\b/);
  });

  it('answers 400 naming after and offset when both are given', async () => {
    const link = nextLink(await get('/api/assets?limit=2'))!;
    for (const offset of ['0', '2']) {
      const response = await get(`/api/assets?after=${cursorOf(link)}&offset=${offset}`);
      expect(response.status).toBe(400);
      expectErrorBody(response, /\bafter\b.*\boffset\b/);
    }
  });

  it('keeps the unfiltered total exact through creates, deletes and ingestion', async () => {
    const total = async () => (await get('/api/assets?limit=1')).body.total as number;
    const start = await total();
    expect(start).toBe(COUNT + 2);
    const created = await t.request('POST', '/api/assets', { token: admin, body: { name: 'n' } });
    expect(await total()).toBe(start + 1);
    await t.request('DELETE', `/api/assets/${created.body.id}`, { token: admin });
    expect(await total()).toBe(start);

    const ingest = async (assets: object[], options: object = {}) => {
      const response = await t.request('POST', INGEST_PATH, {
        token: admin,
        body: { options: { mode: 'merge', source: 'paging', ...options }, assets, relations: [] },
      });
      expect(response.status).toBe(200);
    };
    const fed = Array.from({ length: 30 }, (_, i) => ({ id: `fed-${i}`, name: `fed ${i}` }));
    await ingest(fed);
    expect(await total()).toBe(start + 30);
    // The same again: every asset updated, none added.
    await ingest(fed);
    expect(await total()).toBe(start + 30);
    // Ten gone from the feed, deleted as stale.
    await ingest(fed.slice(10), { deleteStale: true });
    expect(await total()).toBe(start + 20);
    // The unfiltered total agrees with a count of the table.
    const [{ n }] = await t.dataSource.query('SELECT COUNT(*) AS n FROM assets');
    expect(await total()).toBe(Number(n));
  });

  it('keeps the unfiltered total exact through concurrent writes', async () => {
    const total = async () => (await get('/api/assets?limit=1')).body.total as number;
    const start = await total();
    const created = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        t.request('POST', '/api/assets', { token: admin, body: { name: `concurrent ${i}` } }),
      ),
    );
    expect(created.every((response) => response.status === 201)).toBe(true);
    const deleted = await Promise.all(
      created
        .slice(0, 10)
        .map((response) =>
          t.request('DELETE', `/api/assets/${response.body.id}`, { token: admin }),
        ),
    );
    expect(deleted.every((response) => response.status === 204)).toBe(true);
    expect(await total()).toBe(start + 10);
    const [{ n }] = await t.dataSource.query<{ n: string | number }[]>(
      'SELECT COUNT(*) AS n FROM assets',
    );
    expect(await total()).toBe(Number(n));
    // Each writing statement folds in the rows no other transaction holds: few are left.
    const [{ rows }] = await t.dataSource.query<{ rows: string | number }[]>(
      'SELECT COUNT(*) AS rows FROM asset_count',
    );
    expect(Number(rows)).toBeLessThan(30);
  });
});
