import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Asset } from '../../src/database/entities/asset.entity.js';
import { randomUUID } from 'node:crypto';
import { Finding } from '../../src/database/entities/finding.entity.js';
import { Relation } from '../../src/database/entities/relation.entity.js';
import { RelationDirection } from '../../src/common/field-rules/inventory-values.js';
import { expectErrorBody, TestApp, type ApiResponse } from '../support/test-app.js';

/** [id, source, target, type, direction, protocol, toPorts] */
type Edge = [
  id: string,
  source: string,
  target: string,
  type: string,
  direction: 'bi' | 'mono',
  protocol?: string | null,
  toPorts?: string | null,
];

/** A 400 whose sentence names `field`. */
function expectFieldError(response: ApiResponse, field: string): void {
  expect(response.status).toBe(400);
  expectErrorBody(response, new RegExp(`\\b${field}\\b`));
}

const ids = (assets: { id: string }[]) => assets.map((asset) => asset.id);

describe('graph queries', () => {
  let t: TestApp;
  let viewer: string;
  // Oldest first: each relation inserted a millisecond after the one before.
  let clock = Date.parse('2026-01-01T00:00:00.000Z');

  /**
   * Hand-built graphs, written straight to the database, so that relation ids (the path's
   * tie-break) are the test's own. Assets are named by id, with the given risk scores.
   */
  async function buildGraph(assets: Record<string, number | null>, edges: Edge[]): Promise<void> {
    const now = new Date(clock);
    await t.seed(() =>
      t.dataSource.getRepository(Asset).insert(
        Object.entries(assets).map(([id, riskScore]) => ({
          id,
          name: id,
          riskScore,
          createdAt: now,
          updatedAt: now,
        })),
      ),
    );
    for (const [id, source, target, type, direction, protocol, toPorts] of edges) {
      const at = new Date(++clock);
      await t.seed(() =>
        t.dataSource.getRepository(Relation).insert({
          id,
          sourceAssetId: source,
          targetAssetId: target,
          type,
          direction: direction as RelationDirection,
          protocol: protocol ?? null,
          toPorts: toPorts ?? null,
          createdAt: at,
          updatedAt: at,
        }),
      );
    }
  }

  const get = (path: string, token = viewer) => t.request('GET', path, { token });

  async function ok(path: string): Promise<any> {
    const response = await get(path);
    expect(response.status).toBe(200);
    return response.body;
  }

  beforeAll(async () => {
    t = await TestApp.start();
    viewer = (await t.createUser('viewer')).token;

    // A chain n0 - n1 - ... - n6, all bi.
    const chain = Object.fromEntries([0, 1, 2, 3, 4, 5, 6].map((i) => [`n${i}`, null]));
    await buildGraph(
      chain,
      [0, 1, 2, 3, 4, 5].map((i) => [`n-r${i}${i + 1}`, `n${i}`, `n${i + 1}`, 'link', 'bi']),
    );
    // A triangle: c1 - c2 (bi), c2 -> c3 (mono, another type), c3 -> c1 (mono); c4 alone.
    await buildGraph({ c1: null, c2: null, c3: null, c4: null }, [
      ['c-r12', 'c1', 'c2', 'link', 'bi'],
      ['c-r23', 'c2', 'c3', 'other', 'mono'],
      ['c-r31', 'c3', 'c1', 'link', 'mono'],
    ]);
    // Directed: d1 -> d2 -> d3 - d4.
    await buildGraph({ d1: null, d2: null, d3: null, d4: null }, [
      ['d-r12', 'd1', 'd2', 'link', 'mono'],
      ['d-r23', 'd2', 'd3', 'link', 'mono'],
      ['d-r34', 'd3', 'd4', 'link', 'bi'],
    ]);
    // p1 to p4: three hops through p2 and p3, two through p5 or through p6.
    await buildGraph({ p1: null, p2: null, p3: null, p4: null, p5: null, p6: null }, [
      ['p-c1', 'p1', 'p2', 'link', 'mono'],
      ['p-c2', 'p2', 'p3', 'link', 'mono'],
      ['p-c3', 'p3', 'p4', 'link', 'mono'],
      ['p-b1', 'p1', 'p5', 'link', 'mono'],
      ['p-b2', 'p5', 'p4', 'link', 'mono'],
      ['p-a2', 'p6', 'p4', 'link', 'bi'],
      ['p-a1', 'p6', 'p1', 'link', 'bi'],
    ]);
    // Reachability from h0, with risk scores.
    await buildGraph({ h0: 0, h1: 10, h2: null, h3: 90, h4: 50, h5: 100, h6: 50 }, [
      ['h-r01', 'h0', 'h1', 'link', 'mono', 'tcp', '22,80-90'],
      ['h-r12', 'h1', 'h2', 'link', 'mono', null, null],
      ['h-r03', 'h0', 'h3', 'link', 'bi', 'udp', '53'],
      ['h-r34', 'h3', 'h4', 'link', 'mono', 'tcp', '443'],
      ['h-r52', 'h5', 'h2', 'link', 'mono', null, null],
      ['h-r20', 'h2', 'h0', 'link', 'bi', 'tcp', '85,8000-8080'],
      ['h-r14', 'h1', 'h4', 'link', 'mono', null, null],
      ['h-r46', 'h4', 'h6', 'link', 'mono', '', null],
    ]);
  });
  afterAll(async () => {
    await t.close();
  });

  describe('GET /api/assets/:id/graph', () => {
    it('answers the asset and its neighbours one hop away by default, as the API shows them', async () => {
      await t.seed(() =>
        t.dataSource.getRepository(Finding).insert({
          id: randomUUID(),
          assetId: 'n1',
          vulnId: 'CVE-2024-3400',
          score: 10,
          severity: 'critical',
          summary: null,
          publishedDate: null,
          status: 'open',
          firstSeenAt: new Date(),
          lastSeenAt: new Date(),
        }),
      );
      const body = await ok('/api/assets/n0/graph');
      expect(Object.keys(body).sort()).toEqual(['assets', 'relations']);
      expect(ids(body.assets)).toEqual(['n0', 'n1']);
      for (const asset of body.assets) {
        expect(asset).toEqual((await ok(`/api/assets/${asset.id}`)) as unknown);
      }
      expect(body.assets[1].vulnerabilities).toHaveLength(1);
      expect(body.relations).toEqual([await ok('/api/relations/n-r01')]);
    });

    it('walks up to depth hops, and no further', async () => {
      const two = await ok('/api/assets/n2/graph?depth=2');
      expect(ids(two.assets)).toEqual(['n2', 'n1', 'n3', 'n0', 'n4']);
      expect(ids(two.relations)).toEqual(['n-r01', 'n-r12', 'n-r23', 'n-r34']);
      const five = await ok('/api/assets/n0/graph?depth=5');
      expect(ids(five.assets)).toEqual(['n0', 'n1', 'n2', 'n3', 'n4', 'n5']);
      expect(ids(five.relations)).toEqual(['n-r01', 'n-r12', 'n-r23', 'n-r34', 'n-r45']);
    });

    it('walks relations either way whatever their direction, through cycles', async () => {
      const body = await ok('/api/assets/c1/graph?depth=5');
      expect(ids(body.assets)).toEqual(['c1', 'c2', 'c3']);
      expect(ids(body.relations)).toEqual(['c-r12', 'c-r23', 'c-r31']);
      // c3 -> c1 is mono, and still walked from c1.
      expect(ids((await ok('/api/assets/c1/graph')).assets)).toEqual(['c1', 'c2', 'c3']);
    });

    it('walks and answers only relations of type, when given', async () => {
      const link = await ok('/api/assets/c2/graph?type=link');
      expect(ids(link.assets)).toEqual(['c2', 'c1']);
      expect(ids(link.relations)).toEqual(['c-r12']);
      const deeper = await ok('/api/assets/c2/graph?type=link&depth=2');
      expect(ids(deeper.assets)).toEqual(['c2', 'c1', 'c3']);
      // c2 -> c3 joins two answered assets, but is of another type.
      expect(ids(deeper.relations)).toEqual(['c-r12', 'c-r31']);
      expect(await ok('/api/assets/c2/graph?type=none')).toEqual({
        assets: [await ok('/api/assets/c2')],
        relations: [],
      });
    });

    it('answers an asset without relations alone', async () => {
      const body = await ok('/api/assets/c4/graph?depth=5');
      expect(ids(body.assets)).toEqual(['c4']);
      expect(body.relations).toEqual([]);
    });

    it('is a 404 for an unknown asset', async () => {
      const response = await get('/api/assets/nothing/graph');
      expect(response.status).toBe(404);
      expectErrorBody(response, /nothing/);
    });

    it.each([
      ['depth=0', 'depth'],
      ['depth=6', 'depth'],
      ['depth=abc', 'depth'],
      ['depth=1.5', 'depth'],
      ['depth=', 'depth'],
      ['depth=1&depth=2', 'depth'],
      ['type=', 'type'],
      [`type=${'x'.repeat(65)}`, 'type'],
      ['colour=red', 'colour'],
    ])('?%s is a 400 naming %s', async (query, field) => {
      expectFieldError(await get(`/api/assets/n0/graph?${query}`), field);
    });
  });

  describe('GET /api/graph/path', () => {
    const path = (query: string) => ok(`/api/graph/path?${query}`);

    it('answers the walk in order, honouring directions', async () => {
      const body = await path('from=d1&to=d4');
      expect(Object.keys(body).sort()).toEqual(['assets', 'relations']);
      expect(ids(body.assets)).toEqual(['d1', 'd2', 'd3', 'd4']);
      expect(body.assets[0]).toEqual(await ok('/api/assets/d1'));
      expect(body.relations).toEqual([
        await ok('/api/relations/d-r12'),
        await ok('/api/relations/d-r23'),
        await ok('/api/relations/d-r34'),
      ]);
      // bi is walked both ways; mono only from its source.
      expect(ids((await path('from=d4&to=d3')).assets)).toEqual(['d4', 'd3']);
      const back = await get('/api/graph/path?from=d4&to=d1');
      expect(back.status).toBe(404);
      expectErrorBody(back, /no path/);
    });

    it('answers a shortest walk, the smallest relation id first among those as short', async () => {
      const body = await path('from=p1&to=p4');
      expect(ids(body.assets)).toEqual(['p1', 'p6', 'p4']);
      expect(ids(body.relations)).toEqual(['p-a1', 'p-a2']);
    });

    it('walks through cycles', async () => {
      const forwards = await path('from=c1&to=c3');
      expect(ids(forwards.assets)).toEqual(['c1', 'c2', 'c3']);
      expect(ids(forwards.relations)).toEqual(['c-r12', 'c-r23']);
      const round = await path('from=c3&to=c2');
      expect(ids(round.assets)).toEqual(['c3', 'c1', 'c2']);
      expect(ids(round.relations)).toEqual(['c-r31', 'c-r12']);
      expect(ids((await path('from=n0&to=n6')).assets)).toHaveLength(7);
    });

    it('walks at most maxDepth hops (6 by default)', async () => {
      expect((await get('/api/graph/path?from=d1&to=d4&maxDepth=2')).status).toBe(404);
      expect(ids((await path('from=d1&to=d4&maxDepth=3')).assets)).toHaveLength(4);
      expect(ids((await path('from=n0&to=n6')).relations)).toHaveLength(6);
      // n0 to n6 takes six hops: found within 6 (the default), not within 5.
      expect((await get('/api/graph/path?from=n0&to=n6&maxDepth=5')).status).toBe(404);
    });

    it('answers an asset alone from itself to itself', async () => {
      expect(await path('from=d2&to=d2')).toEqual({
        assets: [await ok('/api/assets/d2')],
        relations: [],
      });
    });

    it('is a 404 naming an unknown end, and a 404 when no walk leads there', async () => {
      const from = await get('/api/graph/path?from=nothing&to=d1');
      expect(from.status).toBe(404);
      expectErrorBody(from, /^from: asset nothing not found$/);
      const to = await get('/api/graph/path?from=d1&to=nowhere');
      expect(to.status).toBe(404);
      expectErrorBody(to, /^to: asset nowhere not found$/);
      const apart = await get('/api/graph/path?from=d1&to=c1');
      expect(apart.status).toBe(404);
      expectErrorBody(apart, /^no path from d1 to c1 within 6 hops$/);
    });

    it.each([
      ['to=d1', 'from'],
      ['from=d1', 'to'],
      ['from=&to=d1', 'from'],
      [`from=d1&to=${'x'.repeat(201)}`, 'to'],
      ['from=d1&to=d2&maxDepth=0', 'maxDepth'],
      ['from=d1&to=d2&maxDepth=11', 'maxDepth'],
      ['from=d1&to=d2&maxDepth=-1', 'maxDepth'],
      ['from=d1&to=d2&depth=1', 'depth'],
    ])('?%s is a 400 naming %s', async (query, field) => {
      expectFieldError(await get(`/api/graph/path?${query}`), field);
    });
  });

  describe('GET /api/assets/:id/reachable', () => {
    const reachable = async (query: string) => {
      const body = await ok(`/api/assets/h0/reachable?${query}`);
      expect(Array.isArray(body)).toBe(true);
      return (body as { asset: { id: string }; hops: number }[]).map((item) => {
        expect(Object.keys(item).sort()).toEqual(['asset', 'hops']);
        return [item.asset.id, item.hops];
      });
    };

    it('answers {asset, hops}, riskiest first, unscored last, then nearest first', async () => {
      const body = await ok('/api/assets/h0/reachable?port=22');
      expect(body[0].asset).toEqual(await ok('/api/assets/h4'));
      expect(await reachable('port=22')).toEqual([
        ['h4', 2],
        ['h6', 3],
        ['h1', 1],
        ['h2', 2],
      ]);
    });

    it('walks only relations whose toPorts is empty or holds the port', async () => {
      for (const port of [80, 85, 90]) {
        expect((await reachable(`port=${port}`)).map(([id]) => id)).toContain('h1');
      }
      for (const port of [2, 8, 79, 91, 222]) {
        expect(await reachable(`port=${port}`)).toEqual([]);
      }
      expect(await reachable('port=53')).toEqual([['h3', 1]]);
      expect(await reachable('port=443')).toEqual([]);
    });

    it('answers each asset at the fewest hops, leaving the start out', async () => {
      // h2 is one hop away through h2 - h0 (85 listed), two through h1.
      expect(await reachable('port=85')).toEqual([
        ['h4', 2],
        ['h6', 3],
        ['h1', 1],
        ['h2', 1],
      ]);
      // h0 - h2 - h0 comes back to the start, which is not answered.
      expect(await reachable('port=8080')).toEqual([['h2', 1]]);
    });

    it('walks mono relations from their source only', async () => {
      // h5 -> h2 leads into h2, never out of it to h5.
      const reached = (await reachable('port=85')).map(([id]) => id);
      expect(reached).not.toContain('h5');
      expect(await ok('/api/assets/h2/reachable?port=8000')).toEqual([
        { asset: await ok('/api/assets/h0'), hops: 1 },
      ]);
    });

    it('walks only relations whose protocol is empty or the one asked', async () => {
      expect(await reachable('port=22&protocol=tcp')).toEqual(await reachable('port=22'));
      expect(await reachable('port=22&protocol=udp')).toEqual([]);
      expect(await reachable('port=53&protocol=udp')).toEqual([['h3', 1]]);
      expect(await reachable('port=53&protocol=tcp')).toEqual([]);
      expect(await reachable('port=53&protocol=TCP')).toEqual([]);
    });

    it('walks at most maxDepth hops (6 by default)', async () => {
      expect(await reachable('port=22&maxDepth=2')).toEqual([
        ['h4', 2],
        ['h1', 1],
        ['h2', 2],
      ]);
      expect(await reachable('port=22&maxDepth=1')).toEqual([['h1', 1]]);
      const chain = await ok('/api/assets/n0/reachable?port=1');
      expect(chain.map((item: any) => [item.asset.id, item.hops])).toEqual([
        ['n1', 1],
        ['n2', 2],
        ['n3', 3],
        ['n4', 4],
        ['n5', 5],
        ['n6', 6],
      ]);
      expect(await ok('/api/assets/n0/reachable?port=1&maxDepth=10')).toHaveLength(6);
    });

    it('is a 404 for an unknown asset', async () => {
      const response = await get('/api/assets/nothing/reachable?port=22');
      expect(response.status).toBe(404);
      expectErrorBody(response, /nothing/);
    });

    it.each([
      ['', 'port'],
      ['port=0', 'port'],
      ['port=65536', 'port'],
      ['port=ssh', 'port'],
      ['port=+22', 'port'],
      ['port=22&protocol=', 'protocol'],
      [`port=22&protocol=${'x'.repeat(33)}`, 'protocol'],
      ['port=22&maxDepth=11', 'maxDepth'],
      ['port=22&maxDepth=0', 'maxDepth'],
      ['port=22&depth=2', 'depth'],
    ])('?%s is a 400 naming %s', async (query, field) => {
      expectFieldError(await get(`/api/assets/h0/reachable?${query}`), field);
    });
  });

  it.each([
    '/api/assets/n0/graph',
    '/api/graph/path?from=d1&to=d4',
    '/api/assets/h0/reachable?port=22',
  ])('%s without a token is a 401', async (path) => {
    const response = await t.request('GET', path);
    expect(response.status).toBe(401);
    expectErrorBody(response);
  });
});
