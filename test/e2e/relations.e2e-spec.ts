import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { Asset } from '../../src/database/entities/asset.entity.js';
import { Relation } from '../../src/database/entities/relation.entity.js';
import { RelationDirection } from '../../src/common/field-rules/inventory-values.js';
import { expectErrorBody, TestApp, type ApiResponse } from '../support/test-app.js';
import { fewestQueries } from '../support/query-count.js';

const RELATION_KEYS = [
  'createdAt',
  'direction',
  'id',
  'protocol',
  'sourceAssetId',
  'targetAssetId',
  'toPorts',
  'type',
  'updatedAt',
];

/** A Relation object exactly: these nine fields, ISO timestamps, absent values null. */
function expectRelation(body: any, expected: Record<string, unknown>): void {
  expect(Object.keys(body).sort()).toEqual(RELATION_KEYS);
  expect(body).toEqual({
    id: expect.any(String),
    protocol: null,
    toPorts: null,
    direction: 'bi',
    createdAt: expect.any(String),
    updatedAt: expect.any(String),
    ...expected,
  });
  expect(new Date(body.createdAt).toISOString()).toBe(body.createdAt);
  expect(new Date(body.updatedAt).toISOString()).toBe(body.updatedAt);
}

/** A 400 whose sentence names `field`. */
function expectFieldError(response: ApiResponse, field: string): void {
  expect(response.status).toBe(400);
  expectErrorBody(response, new RegExp(`\\b${field}\\b`));
}

describe('relations', () => {
  let t: TestApp;
  let admin: string;
  let editor: string;
  let viewer: string;
  // Two assets most tests link; filter and paging tests make their own.
  let a: string;
  let b: string;

  /** Assets are written straight to the database, so that these tests need no assets API. */
  async function insertAsset(name = 'an asset'): Promise<string> {
    const id = randomUUID();
    const now = new Date();
    await t.seed(() =>
      t.dataSource.getRepository(Asset).insert({ id, name, createdAt: now, updatedAt: now }),
    );
    return id;
  }

  async function createRelation(body: Record<string, unknown>, token = editor): Promise<any> {
    const response = await t.request('POST', '/api/relations', { token, body });
    expect(response.status).toBe(201);
    return response.body;
  }

  async function list(query = '', token = editor): Promise<{ items: any[]; total: number }> {
    const response = await t.request('GET', `/api/relations${query}`, { token });
    expect(response.status).toBe(200);
    expect(Array.isArray(response.body)).toBe(true);
    const header = response.headers.get('x-total-count');
    expect(header).toMatch(/^\d+$/);
    return { items: response.body, total: Number(header) };
  }

  async function total(): Promise<number> {
    return (await list()).total;
  }

  beforeAll(async () => {
    t = await TestApp.start();
    admin = await t.login();
    editor = (await t.createUser('editor')).token;
    viewer = (await t.createUser('viewer')).token;
    a = await insertAsset('asset a');
    b = await insertAsset('asset b');
  });
  afterAll(async () => {
    await t.close();
  });

  describe('POST /api/relations', () => {
    it('creates a relation with every field and answers 201 with it', async () => {
      const body = {
        sourceAssetId: a,
        targetAssetId: b,
        type: 'connects',
        direction: 'mono',
        protocol: 'tcp',
        toPorts: '22,8000-8080',
      };
      const response = await t.request('POST', '/api/relations', { token: editor, body });
      expect(response.status).toBe(201);
      expectRelation(response.body, body);
      expect(response.body.updatedAt).toBe(response.body.createdAt);
      const stored = await t.request('GET', `/api/relations/${response.body.id}`, {
        token: editor,
      });
      expect(stored.body).toEqual(response.body);
    });

    it('defaults direction to bi and absent protocol and toPorts to null', async () => {
      const created = await createRelation({ sourceAssetId: a, targetAssetId: b, type: 'x' });
      expectRelation(created, { sourceAssetId: a, targetAssetId: b, type: 'x', direction: 'bi' });
    });

    it('accepts null for protocol and toPorts', async () => {
      const created = await createRelation({
        sourceAssetId: a,
        targetAssetId: b,
        type: 'x',
        protocol: null,
        toPorts: null,
      });
      expectRelation(created, { sourceAssetId: a, targetAssetId: b, type: 'x' });
    });

    it('accepts a type of 64 characters, a protocol of 32 and the edge ports', async () => {
      const body = {
        sourceAssetId: b,
        targetAssetId: a,
        type: 't'.repeat(64),
        protocol: 'p'.repeat(32),
        toPorts: '1,65535,1-65535,80-80',
      };
      expectRelation(await createRelation(body), body);
    });

    it.each(['443', '80,443', '8000-8080', '22,8000-8080'])(
      'accepts toPorts %s',
      async (toPorts) => {
        const created = await createRelation({
          sourceAssetId: a,
          targetAssetId: b,
          type: 'x',
          toPorts,
        });
        expect(created.toPorts).toBe(toPorts);
      },
    );

    it('gives each relation its own UUID, also for the same ends and type', async () => {
      const body = { sourceAssetId: a, targetAssetId: b, type: 'twice' };
      const first = await createRelation(body);
      const second = await createRelation(body);
      // Version 7: time-ordered, so that new rows append to the primary key's index.
      expect(first.id).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
      expect(second.id).not.toBe(first.id);
    });

    describe('refuses with 400 naming the field, and writes nothing', () => {
      async function expectRefused(body: Record<string, unknown>, field: string): Promise<void> {
        const before = await total();
        const response = await t.request('POST', '/api/relations', { token: editor, body });
        expectFieldError(response, field);
        expect(await total()).toBe(before);
      }
      const valid = (): Record<string, unknown> => ({
        sourceAssetId: a,
        targetAssetId: b,
        type: 'connects',
      });
      const without = (field: string) => {
        const body = valid();
        delete body[field];
        return body;
      };

      it('a missing sourceAssetId', async () => {
        await expectRefused(without('sourceAssetId'), 'sourceAssetId');
      });

      it('a missing targetAssetId', async () => {
        await expectRefused(without('targetAssetId'), 'targetAssetId');
      });

      it('a sourceAssetId that is not a string', async () => {
        await expectRefused({ ...valid(), sourceAssetId: 42 }, 'sourceAssetId');
      });

      it('an unknown sourceAssetId', async () => {
        const body = { ...valid(), sourceAssetId: randomUUID() };
        const before = await total();
        const response = await t.request('POST', '/api/relations', { token: editor, body });
        expect(response.status).toBe(400);
        expect(response.body).toEqual({ error: 'sourceAssetId refers to no asset' });
        expect(await total()).toBe(before);
      });

      it('an unknown targetAssetId', async () => {
        const body = { ...valid(), targetAssetId: 'no-such-asset' };
        const before = await total();
        const response = await t.request('POST', '/api/relations', { token: editor, body });
        expect(response.status).toBe(400);
        expect(response.body).toEqual({ error: 'targetAssetId refers to no asset' });
        expect(await total()).toBe(before);
      });

      it('both ends unknown, naming both', async () => {
        const body = { ...valid(), sourceAssetId: 'nope-1', targetAssetId: 'nope-2' };
        const response = await t.request('POST', '/api/relations', { token: editor, body });
        expectFieldError(response, 'sourceAssetId');
        expectFieldError(response, 'targetAssetId');
      });

      it('an asset linked to itself', async () => {
        await expectRefused({ ...valid(), targetAssetId: a }, 'targetAssetId');
      });

      it('a missing type', async () => {
        await expectRefused(without('type'), 'type');
      });

      it('an empty type', async () => {
        await expectRefused({ ...valid(), type: '' }, 'type');
      });

      it('a type over 64 characters', async () => {
        await expectRefused({ ...valid(), type: 't'.repeat(65) }, 'type');
      });

      it.each([['sideways'], [''], ['BI'], [null], [1]])('a direction of %p', async (direction) => {
        await expectRefused({ ...valid(), direction }, 'direction');
      });

      it('a protocol over 32 characters', async () => {
        await expectRefused({ ...valid(), protocol: 'p'.repeat(33) }, 'protocol');
      });

      it('a protocol that is not a string', async () => {
        await expectRefused({ ...valid(), protocol: 6 }, 'protocol');
      });

      it.each([
        [''],
        ['80,'],
        [',80'],
        ['80,,443'],
        ['80, 443'],
        [' 80'],
        ['0'],
        ['65536'],
        ['90-80'],
        ['0-80'],
        ['80-65536'],
        ['+80'],
        ['-80'],
        ['80-'],
        ['80--90'],
        ['1-2-3'],
        ['http'],
        ['0080'],
        ['80.5'],
        ['1,'.repeat(500) + '1'],
        [443],
        [['80']],
      ])('a toPorts of %p', async (toPorts) => {
        await expectRefused({ ...valid(), toPorts }, 'toPorts');
      });

      it('an unknown property', async () => {
        await expectRefused({ ...valid(), colour: 'red' }, 'colour');
      });

      it('an id given by the client', async () => {
        await expectRefused({ ...valid(), id: randomUUID() }, 'id');
      });
    });
  });

  describe('GET /api/relations/:id', () => {
    it('answers the relation', async () => {
      const created = await createRelation({
        sourceAssetId: a,
        targetAssetId: b,
        type: 'reads',
        protocol: 'udp',
      });
      const response = await t.request('GET', `/api/relations/${created.id}`, { token: editor });
      expect(response.status).toBe(200);
      expectRelation(response.body, {
        id: created.id,
        sourceAssetId: a,
        targetAssetId: b,
        type: 'reads',
        protocol: 'udp',
      });
      expect(response.body).toEqual(created);
    });
  });

  describe('PUT /api/relations/:id', () => {
    it('changes the given fields, keeps the others and the ends, and moves updatedAt', async () => {
      const { id } = await createRelation({
        sourceAssetId: a,
        targetAssetId: b,
        type: 'old',
        protocol: 'tcp',
        toPorts: '80',
      });
      // Stored as made a minute ago: the update's timestamp is later whatever the clock's grain.
      const past = new Date(Date.now() - 60_000);
      await t.seed(() =>
        t.dataSource.getRepository(Relation).update(id, { createdAt: past, updatedAt: past }),
      );
      const created = (await t.request('GET', `/api/relations/${id}`, { token: editor })).body;
      expect(created.updatedAt).toBe(past.toISOString());
      const response = await t.request('PUT', `/api/relations/${created.id}`, {
        token: editor,
        body: { type: 'new', direction: 'mono' },
      });
      expect(response.status).toBe(200);
      expectRelation(response.body, {
        id: created.id,
        sourceAssetId: a,
        targetAssetId: b,
        type: 'new',
        direction: 'mono',
        protocol: 'tcp',
        toPorts: '80',
        createdAt: created.createdAt,
      });
      expect(Date.parse(response.body.updatedAt)).toBeGreaterThan(Date.parse(created.updatedAt));
      const stored = await t.request('GET', `/api/relations/${created.id}`, { token: editor });
      expect(stored.body).toEqual(response.body);
    });

    it('sets protocol and toPorts, and clears them with null', async () => {
      const created = await createRelation({ sourceAssetId: a, targetAssetId: b, type: 'x' });
      const set = await t.request('PUT', `/api/relations/${created.id}`, {
        token: editor,
        body: { protocol: 'https', toPorts: '443,8443' },
      });
      expect(set.status).toBe(200);
      expect(set.body).toMatchObject({ protocol: 'https', toPorts: '443,8443' });
      const cleared = await t.request('PUT', `/api/relations/${created.id}`, {
        token: editor,
        body: { protocol: null, toPorts: null },
      });
      expect(cleared.status).toBe(200);
      expectRelation(cleared.body, {
        id: created.id,
        sourceAssetId: a,
        targetAssetId: b,
        type: 'x',
        createdAt: created.createdAt,
        updatedAt: expect.any(String),
      });
    });

    it('with an empty body changes nothing but updatedAt', async () => {
      const created = await createRelation({ sourceAssetId: a, targetAssetId: b, type: 'x' });
      const response = await t.request('PUT', `/api/relations/${created.id}`, {
        token: editor,
        body: {},
      });
      expect(response.status).toBe(200);
      expect({ ...response.body, updatedAt: created.updatedAt }).toEqual(created);
    });

    describe('refuses with 400 naming the field, and changes nothing', () => {
      let relation: any;
      beforeAll(async () => {
        relation = await createRelation({
          sourceAssetId: a,
          targetAssetId: b,
          type: 'fixed',
          protocol: 'tcp',
          toPorts: '22',
        });
      });

      it.each([
        [{ type: null }, 'type'],
        [{ type: '' }, 'type'],
        [{ type: 't'.repeat(65) }, 'type'],
        [{ direction: null }, 'direction'],
        [{ direction: 'both' }, 'direction'],
        [{ protocol: 'p'.repeat(33) }, 'protocol'],
        [{ toPorts: '0' }, 'toPorts'],
        [{ toPorts: '90-80' }, 'toPorts'],
        [{ toPorts: '80,' }, 'toPorts'],
        [{ sourceAssetId: 'some-asset' }, 'sourceAssetId'],
        [{ targetAssetId: 'some-asset' }, 'targetAssetId'],
        [{ id: randomUUID() }, 'id'],
        [{ createdAt: new Date().toISOString() }, 'createdAt'],
      ])('%p', async (body, field) => {
        const response = await t.request('PUT', `/api/relations/${relation.id}`, {
          token: editor,
          body: { type: 'changed', ...body },
        });
        expectFieldError(response, field);
        const stored = await t.request('GET', `/api/relations/${relation.id}`, { token: editor });
        expect(stored.body).toEqual(relation);
      });
    });
  });

  describe('DELETE /api/relations/:id', () => {
    it('answers 204 with no body, and the relation is gone', async () => {
      const created = await createRelation({ sourceAssetId: a, targetAssetId: b, type: 'x' });
      const before = await total();
      const response = await t.request('DELETE', `/api/relations/${created.id}`, {
        token: editor,
      });
      expect(response.status).toBe(204);
      expect(response.body).toBeUndefined();
      expect(
        (await t.request('GET', `/api/relations/${created.id}`, { token: editor })).status,
      ).toBe(404);
      expect(await total()).toBe(before - 1);
      const again = await t.request('DELETE', `/api/relations/${created.id}`, { token: editor });
      expect(again.status).toBe(404);
      expectErrorBody(again);
    });
  });

  describe('unknown ids', () => {
    const ids = [
      randomUUID(),
      'not-a-uuid',
      'x'.repeat(300),
      encodeURIComponent("' OR '1'='1"),
      encodeURIComponent('é%ü'),
      // PostgreSQL refuses NUL in text; still a 404, not a 500.
      '%00',
    ];

    it.each(ids)('GET /api/relations/%s is 404', async (id) => {
      const response = await t.request('GET', `/api/relations/${id}`, { token: editor });
      expect(response.status).toBe(404);
      expectErrorBody(response, /not found/);
    });

    it.each(ids)('PUT /api/relations/%s is 404', async (id) => {
      const response = await t.request('PUT', `/api/relations/${id}`, {
        token: editor,
        body: { type: 'x' },
      });
      expect(response.status).toBe(404);
      expectErrorBody(response, /not found/);
    });

    it.each(ids)('DELETE /api/relations/%s is 404', async (id) => {
      const before = await total();
      const response = await t.request('DELETE', `/api/relations/${id}`, { token: editor });
      expect(response.status).toBe(404);
      expectErrorBody(response, /not found/);
      expect(await total()).toBe(before);
    });
  });

  describe('GET /api/relations', () => {
    // Assets of their own, so that other tests' relations do not count here.
    let x: string;
    let y: string;
    let z: string;
    let xy: any;
    let yz: any;
    let zx: any;
    let xyCalls: any;
    beforeAll(async () => {
      [x, y, z] = [await insertAsset('x'), await insertAsset('y'), await insertAsset('z')];
      xy = await createRelation({ sourceAssetId: x, targetAssetId: y, type: 'flows' });
      yz = await createRelation({ sourceAssetId: y, targetAssetId: z, type: 'flows' });
      zx = await createRelation({ sourceAssetId: z, targetAssetId: x, type: 'calls' });
      xyCalls = await createRelation({ sourceAssetId: x, targetAssetId: y, type: 'calls' });
    });

    it('answers a bare array of relations with X-Total-Count, every one without limit', async () => {
      const response = await t.request('GET', '/api/relations', { token: editor });
      expect(response.status).toBe(200);
      expect(Array.isArray(response.body)).toBe(true);
      const count = await t.dataSource.getRepository(Relation).count();
      expect(response.body).toHaveLength(count);
      expect(response.headers.get('x-total-count')).toBe(String(count));
      for (const relation of response.body)
        expect(Object.keys(relation).sort()).toEqual(RELATION_KEYS);
      expect(response.body).toContainEqual(xy);
    });

    it('orders by createdAt, then id', async () => {
      const [from, to] = [await insertAsset('from'), await insertAsset('to')];
      const type = `ordered-${randomUUID()}`;
      const same = new Date('2030-01-01T00:00:00.000Z');
      const rows = [
        { id: 'zzz-earliest', createdAt: new Date('2029-12-31T23:59:59.999Z') },
        { id: 'ccc', createdAt: same },
        { id: 'aaa', createdAt: same },
        { id: 'bbb', createdAt: same },
      ];
      await t.seed(() =>
        t.dataSource.getRepository(Relation).insert(
          rows.map((row) => ({
            ...row,
            id: `${row.id}-${type}`.slice(0, 36),
            sourceAssetId: from,
            targetAssetId: to,
            type,
            direction: RelationDirection.Bi,
            protocol: null,
            toPorts: null,
            updatedAt: row.createdAt,
          })),
        ),
      );
      const { items } = await list(`?type=${type}`);
      expect(items.map((relation) => relation.id.split('-')[0])).toEqual([
        'zzz',
        'aaa',
        'bbb',
        'ccc',
      ]);
      expect(items[0].createdAt).toBe('2029-12-31T23:59:59.999Z');
      expect(items[1].createdAt).toBe('2030-01-01T00:00:00.000Z');
    });

    it('filters by assetId at either end', async () => {
      expect(await list(`?assetId=${x}`)).toEqual({ items: [xy, zx, xyCalls], total: 3 });
      expect(await list(`?assetId=${z}`)).toEqual({ items: [yz, zx], total: 2 });
    });

    it('filters by type, exactly', async () => {
      const type = `kind-${randomUUID()}`;
      const one = await createRelation({
        sourceAssetId: await insertAsset('typed'),
        targetAssetId: await insertAsset('typed too'),
        type,
      });
      expect(await list(`?type=${type}`)).toEqual({ items: [one], total: 1 });
      expect(await list(`?type=${type.toUpperCase()}`)).toEqual({ items: [], total: 0 });
      expect(await list(`?type=${type.slice(0, -1)}`)).toEqual({ items: [], total: 0 });
    });

    it('combines assetId and type', async () => {
      expect(await list(`?assetId=${y}&type=flows`)).toEqual({ items: [xy, yz], total: 2 });
      expect(await list(`?assetId=${x}&type=calls`)).toEqual({ items: [zx, xyCalls], total: 2 });
      expect(await list(`?assetId=${z}&type=calls`)).toEqual({ items: [zx], total: 1 });
      expect(await list(`?assetId=${y}&type=none`)).toEqual({ items: [], total: 0 });
    });

    it('answers an empty array for an unknown asset', async () => {
      expect(await list(`?assetId=${randomUUID()}`)).toEqual({ items: [], total: 0 });
    });

    it('refuses a NUL character in a filter with 400 naming it', async () => {
      const response = await t.request('GET', '/api/relations?assetId=%00', { token: editor });
      expect(response.status).toBe(400);
      expectErrorBody(response, /^assetId must not contain NUL characters/);
    });

    describe('paging', () => {
      let p: string;
      let all: any[];
      beforeAll(async () => {
        p = await insertAsset('paged');
        const others = [await insertAsset('q'), await insertAsset('r')];
        for (let i = 0; i < 7; i++) {
          await createRelation({ sourceAssetId: p, targetAssetId: others[i % 2], type: 'paged' });
        }
        // One of another type, which the type filter leaves out.
        await createRelation({ sourceAssetId: others[0], targetAssetId: p, type: 'unpaged' });
        const everything = await list(`?assetId=${p}&type=paged`);
        all = everything.items;
        expect(everything.total).toBe(7);
        expect(all).toHaveLength(7);
      });

      it('pages with limit and offset, without overlap or gap, with the filtered total', async () => {
        const pages: any[] = [];
        for (let offset = 0; offset < 9; offset += 3) {
          const page = await list(`?assetId=${p}&type=paged&limit=3&offset=${offset}`);
          expect(page.total).toBe(7);
          expect(page.items.length).toBeLessThanOrEqual(3);
          pages.push(...page.items);
        }
        expect(pages).toEqual(all);
        expect(new Set(pages.map((relation) => relation.id)).size).toBe(7);
      });

      it('answers an empty page past the end, still with the total', async () => {
        expect(await list(`?assetId=${p}&type=paged&limit=5&offset=7`)).toEqual({
          items: [],
          total: 7,
        });
      });

      it('answers the rest from an offset without limit', async () => {
        expect(await list(`?assetId=${p}&type=paged&offset=5`)).toEqual({
          items: all.slice(5),
          total: 7,
        });
      });

      it('answers the first page for a limit alone', async () => {
        expect(await list(`?assetId=${p}&limit=2`)).toEqual({
          items: (await list(`?assetId=${p}`)).items.slice(0, 2),
          total: 8,
        });
      });

      it('accepts limit 1000', async () => {
        expect((await list(`?assetId=${p}&type=paged&limit=1000`)).items).toEqual(all);
      });

      it('runs a fixed number of queries whatever the page size', async () => {
        const count = (query: string) => fewestQueries(t.dataSource, () => list(query));
        const one = await count(`?assetId=${p}&limit=1`);
        const seven = await count(`?assetId=${p}&limit=7`);
        const unlimited = await count('');
        expect(one).toBeGreaterThan(0);
        expect(seven).toBe(one);
        // Without a full page, the total is the page's length: the count query is left out.
        expect(unlimited).toBeLessThanOrEqual(one);
      });
    });

    it.each([
      ['limit=0', 'limit'],
      ['limit=1001', 'limit'],
      ['limit=abc', 'limit'],
      ['limit=1.5', 'limit'],
      ['offset=-1', 'offset'],
      ['offset=abc', 'offset'],
      // Past what the databases take as an OFFSET or a LIMIT: a 400, not their error.
      ['offset=9223372036854775807', 'offset'],
      ['offset=2147483648', 'offset'],
      ['limit=9223372036854775807', 'limit'],
      ['limit=1&offset=9223372036854775807', 'offset'],
      ['assetId=', 'assetId'],
      ['type=', 'type'],
      [`type=${'t'.repeat(65)}`, 'type'],
      ['type=a&type=b', 'type'],
      ['sourceAssetId=x', 'sourceAssetId'],
      ['page=2', 'page'],
    ])('refuses ?%s with 400 naming the parameter', async (query, parameter) => {
      const response = await t.request('GET', `/api/relations?${query}`, { token: editor });
      expectFieldError(response, parameter);
    });

    it.each(['?offset=2147483647', '?limit=1000&offset=2147483647'])(
      'answers no relation at the largest offset (%s), with the total',
      async (query) => {
        const count = await t.dataSource.getRepository(Relation).count();
        expect(await list(query)).toEqual({ items: [], total: count });
      },
    );
  });

  describe('roles', () => {
    let relation: any;
    beforeAll(async () => {
      relation = await createRelation({ sourceAssetId: a, targetAssetId: b, type: 'guarded' });
    });

    it('a viewer reads the list and a relation', async () => {
      const listed = await t.request('GET', `/api/relations?assetId=${a}`, { token: viewer });
      expect(listed.status).toBe(200);
      expect(listed.body).toContainEqual(relation);
      const one = await t.request('GET', `/api/relations/${relation.id}`, { token: viewer });
      expect(one.status).toBe(200);
      expect(one.body).toEqual(relation);
    });

    it('a viewer gets 403 on POST, PUT and DELETE, and nothing changes', async () => {
      const before = await total();
      const created = await t.request('POST', '/api/relations', {
        token: viewer,
        body: { sourceAssetId: a, targetAssetId: b, type: 'by-viewer' },
      });
      expect(created.status).toBe(403);
      expectErrorBody(created, /editor/);
      const updated = await t.request('PUT', `/api/relations/${relation.id}`, {
        token: viewer,
        body: { type: 'by-viewer' },
      });
      expect(updated.status).toBe(403);
      expectErrorBody(updated);
      const deleted = await t.request('DELETE', `/api/relations/${relation.id}`, {
        token: viewer,
      });
      expect(deleted.status).toBe(403);
      expectErrorBody(deleted);
      expect(await total()).toBe(before);
      const stored = await t.request('GET', `/api/relations/${relation.id}`, { token: viewer });
      expect(stored.body).toEqual(relation);
    });

    it.each([
      ['an editor', () => editor],
      ['an admin', () => admin],
    ])('%s creates, updates and deletes', async (_who, token) => {
      const created = await createRelation(
        { sourceAssetId: b, targetAssetId: a, type: 'w' },
        token(),
      );
      const updated = await t.request('PUT', `/api/relations/${created.id}`, {
        token: token(),
        body: { direction: 'mono' },
      });
      expect(updated.status).toBe(200);
      expect(updated.body.direction).toBe('mono');
      const deleted = await t.request('DELETE', `/api/relations/${created.id}`, {
        token: token(),
      });
      expect(deleted.status).toBe(204);
    });

    it.each([
      ['GET', '/api/relations'],
      ['GET', '/api/relations/some-id'],
      ['POST', '/api/relations'],
      ['PUT', '/api/relations/some-id'],
      ['DELETE', '/api/relations/some-id'],
    ])('%s %s without a token is 401', async (method, path) => {
      const body = method === 'POST' || method === 'PUT' ? { type: 'x' } : undefined;
      const response = await t.request(method, path, { body });
      expect(response.status).toBe(401);
      expectErrorBody(response);
    });
  });

  describe('deleting an asset', () => {
    it('deletes every relation touching it, in the database, and keeps the others', async () => {
      const [p, q, r] = [await insertAsset('p'), await insertAsset('q'), await insertAsset('r')];
      const pq = await createRelation({ sourceAssetId: p, targetAssetId: q, type: 'link' });
      const rp = await createRelation({ sourceAssetId: r, targetAssetId: p, type: 'link' });
      const qr = await createRelation({ sourceAssetId: q, targetAssetId: r, type: 'link' });
      const before = await total();

      await t.seed(() => t.dataSource.getRepository(Asset).delete({ id: p }));

      expect(await list(`?assetId=${p}`)).toEqual({ items: [], total: 0 });
      for (const gone of [pq, rp]) {
        const response = await t.request('GET', `/api/relations/${gone.id}`, { token: editor });
        expect(response.status).toBe(404);
      }
      expect(await list(`?assetId=${q}`)).toEqual({ items: [qr], total: 1 });
      expect(await total()).toBe(before - 2);
    });

    it('makes the asset unusable as an end', async () => {
      const gone = await insertAsset('gone');
      await t.seed(() => t.dataSource.getRepository(Asset).delete({ id: gone }));
      const response = await t.request('POST', '/api/relations', {
        token: editor,
        body: { sourceAssetId: a, targetAssetId: gone, type: 'x' },
      });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: 'targetAssetId refers to no asset' });
    });
  });
});
