import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { Diagram } from '../../src/database/entities/diagram.entity.js';
import { expectErrorBody, TestApp, type ApiResponse } from '../support/test-app.js';

const MIB = 1024 * 1024;
const FIELDS = ['content', 'description', 'name', 'visibility'];
const SUMMARY_KEYS = [
  'createdAt',
  'description',
  'id',
  'name',
  'ownerId',
  'updatedAt',
  'visibility',
];
const DIAGRAM_KEYS = [...SUMMARY_KEYS, 'content'].sort();
const NESTED = { b: 1, a: { z: [1, { y: null }], x: 'é' } };

/** A diagram as GET one answers it: exactly these keys, ISO timestamps. */
function expectDiagram(body: any, expected: Record<string, unknown>): void {
  expect(Object.keys(body).sort()).toEqual(DIAGRAM_KEYS);
  expect(body).toMatchObject(expected);
  expect(new Date(body.createdAt).toISOString()).toBe(body.createdAt);
  expect(new Date(body.updatedAt).toISOString()).toBe(body.updatedAt);
}

/** A 400 whose sentence names `field` and none of the other diagram fields. */
function expectFieldError(response: ApiResponse, field: string): void {
  expect(response.status).toBe(400);
  expectErrorBody(response, new RegExp(`\\b${field}\\b`));
  for (const other of FIELDS.filter((f) => f !== field)) {
    expect(response.body.error).not.toMatch(new RegExp(`\\b${other}\\b`));
  }
}

/**
 * Raw JSON for `{"name","content":{"pad":"xx..","n":[1e20,...]}}` whose content serializes to
 * exactly `bytes` bytes: each `1e20` (4 bytes sent) serializes as 21 digits, so the body stays
 * far below the 1 MiB body limit while the content reaches the 1 MiB content limit.
 */
function inflatingBody(bytes: number): string {
  const count = 40_000;
  // {"pad":"<pad>","n":[<count numbers of 21 digits, comma-separated>]}
  const pad = bytes - (16 + 22 * count);
  const numbers = new Array<string>(count).fill('1e20').join(',');
  return `{"name":"inflating","content":{"pad":"${'p'.repeat(pad)}","n":[${numbers}]}}`;
}

describe('diagrams', () => {
  let t: TestApp;
  let admin: string;
  let adminId: string;
  let owner: { id: string; token: string };
  let otherEditor: { id: string; token: string };
  let viewer: { id: string; token: string };

  beforeAll(async () => {
    t = await TestApp.start();
    admin = await t.login();
    adminId = (await t.request('GET', '/api/auth/me', { token: admin })).body.id;
    owner = await t.createUser('editor');
    otherEditor = await t.createUser('editor');
    viewer = await t.createUser('viewer');
  });
  afterAll(async () => {
    await t.close();
  });

  async function create(token: string, body: Record<string, unknown> = {}): Promise<any> {
    const response = await t.request('POST', '/api/diagrams', {
      token,
      body: { name: 'A diagram', ...body },
    });
    expect(response.status).toBe(201);
    return response.body;
  }

  async function list(token: string, query = ''): Promise<ApiResponse<any[]>> {
    const response = await t.request<any[]>('GET', `/api/diagrams${query}`, { token });
    expect(response.status).toBe(200);
    return response;
  }

  /** Every stored diagram: the admin sees them all. */
  async function everything(): Promise<any[]> {
    return (await list(admin)).body;
  }

  async function read(id: string): Promise<any> {
    const response = await t.request('GET', `/api/diagrams/${id}`, { token: admin });
    expect(response.status).toBe(200);
    return response.body;
  }

  /**
   * The diagram as if made a minute ago, so that an update's timestamp is later whatever the
   * clock's grain.
   */
  async function madeAMinuteAgo(diagram: { id: string }): Promise<any> {
    const past = new Date(Date.now() - 60_000);
    await t.seed(() =>
      t.dataSource.getRepository(Diagram).update(diagram.id, {
        createdAt: past,
        updatedAt: past,
      }),
    );
    const stored = await read(diagram.id);
    expect(stored.updatedAt).toBe(past.toISOString());
    return stored;
  }

  describe('POST /api/diagrams', () => {
    it('creates a diagram owned by the caller: 201 with content', async () => {
      const response = await t.request('POST', '/api/diagrams', {
        token: owner.token,
        body: {
          name: 'DMZ',
          description: 'The exposed part',
          visibility: 'public',
          content: { nodes: [{ assetId: 'a1', x: 10, y: 20 }], edges: [{ relationId: 'r1' }] },
        },
      });
      expect(response.status).toBe(201);
      expectDiagram(response.body, {
        name: 'DMZ',
        description: 'The exposed part',
        visibility: 'public',
        ownerId: owner.id,
        content: { nodes: [{ assetId: 'a1', x: 10, y: 20 }], edges: [{ relationId: 'r1' }] },
      });
      expect(response.body.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(response.body.updatedAt).toBe(response.body.createdAt);
      expect(await read(response.body.id)).toEqual(response.body);
    });

    it('defaults to private visibility, empty content and a null description', async () => {
      const response = await t.request('POST', '/api/diagrams', {
        token: owner.token,
        body: { name: 'Bare' },
      });
      expect(response.status).toBe(201);
      expectDiagram(response.body, {
        name: 'Bare',
        description: null,
        visibility: 'private',
        ownerId: owner.id,
        content: {},
      });
    });

    it('is allowed to an admin', async () => {
      const diagram = await create(admin);
      expect(diagram.ownerId).toBe(adminId);
    });

    it('is 403 for a viewer, and writes nothing', async () => {
      const before = (await everything()).length;
      const response = await t.request('POST', '/api/diagrams', {
        token: viewer.token,
        body: { name: 'Not allowed' },
      });
      expect(response.status).toBe(403);
      expectErrorBody(response);
      expect((await everything()).length).toBe(before);
    });

    it('is 401 without a token', async () => {
      const response = await t.request('POST', '/api/diagrams', { body: { name: 'Anonymous' } });
      expect(response.status).toBe(401);
      expectErrorBody(response);
    });

    it('accepts a name of 255 characters and a description of 2000', async () => {
      const diagram = await create(owner.token, {
        name: 'n'.repeat(255),
        description: 'd'.repeat(2000),
      });
      expect(diagram.name).toBe('n'.repeat(255));
      expect(diagram.description).toBe('d'.repeat(2000));
    });
  });

  describe('content', () => {
    it('comes back exactly as sent: same keys, same order, nested values untouched', async () => {
      const created = await create(owner.token, { content: NESTED });
      expect(JSON.stringify(created.content)).toBe(JSON.stringify(NESTED));
      const fetched = await t.request('GET', `/api/diagrams/${created.id}`, { token: owner.token });
      expect(JSON.stringify(fetched.body.content)).toBe(JSON.stringify(NESTED));
    });

    it('keeps the order of keys as sent, not sorted, also after an update', async () => {
      const created = await create(owner.token);
      const content = { zebra: 1, alpha: { omega: true, beta: 'é\n"\u2028' }, mid: [3, 2, 1] };
      const updated = await t.request('PUT', `/api/diagrams/${created.id}`, {
        token: owner.token,
        body: { content },
      });
      expect(updated.status).toBe(200);
      expect(JSON.stringify(updated.body.content)).toBe(JSON.stringify(content));
      expect(JSON.stringify((await read(created.id)).content)).toBe(JSON.stringify(content));
    });

    it('accepts nesting of 100 levels and refuses 101 (400 naming content)', async () => {
      const nest = (levels: number) => '{"a":'.repeat(levels - 1) + '{}' + '}'.repeat(levels - 1);
      const accepted = await t.request('POST', '/api/diagrams', {
        token: owner.token,
        rawBody: `{"name":"deep","content":${nest(100)}}`,
        headers: { 'content-type': 'application/json' },
      });
      expect(accepted.status).toBe(201);
      const before = (await everything()).length;
      const refused = await t.request('POST', '/api/diagrams', {
        token: owner.token,
        rawBody: `{"name":"deep","content":${nest(101)}}`,
        headers: { 'content-type': 'application/json' },
      });
      expectFieldError(refused, 'content');
      expect((await everything()).length).toBe(before);
    });

    it('refuses hostile nesting (100 000 levels) with a 400, not a crash', async () => {
      const before = (await everything()).length;
      const response = await t.request('POST', '/api/diagrams', {
        token: owner.token,
        rawBody: `{"name":"bomb","content":${'{"a":'.repeat(100_000)}{}${'}'.repeat(100_000)}}`,
        headers: { 'content-type': 'application/json' },
      });
      // Refused by the body parser, before any validator recurses into it.
      expect(response.status).toBe(400);
      expectErrorBody(response, /deeper than 200 levels/);
      expect((await everything()).length).toBe(before);
    });

    it('accepts content of exactly 1 MiB serialized', async () => {
      const rawBody = inflatingBody(MIB);
      expect(Buffer.byteLength(rawBody)).toBeLessThan(MIB);
      const response = await t.request('POST', '/api/diagrams', {
        token: owner.token,
        rawBody,
        headers: { 'content-type': 'application/json' },
      });
      expect(response.status).toBe(201);
      expect(Buffer.byteLength(JSON.stringify(response.body.content))).toBe(MIB);
      const fetched = await read(response.body.id);
      expect(JSON.stringify(fetched.content)).toBe(JSON.stringify(response.body.content));
    });

    it('accepts a body just under the 1 MiB body limit, its content kept whole', async () => {
      const content = { text: 'x'.repeat(MIB - 100) };
      const body = { name: 'big', content };
      expect(Buffer.byteLength(JSON.stringify(body))).toBeLessThan(MIB);
      const created = await create(owner.token, body);
      expect(created.content.text.length).toBe(MIB - 100);
      expect((await read(created.id)).content).toEqual(content);
    });
  });

  describe('validation: 400 naming the field, nothing written', () => {
    const invalid: [string, string, Record<string, unknown>][] = [
      ['an empty name', 'name', { name: '' }],
      ['a name of 256 characters', 'name', { name: 'n'.repeat(256) }],
      ['a name that is not a string', 'name', { name: 42 }],
      ['a description of 2001 characters', 'description', { description: 'd'.repeat(2001) }],
      ['an unknown visibility', 'visibility', { visibility: 'secret' }],
      ['a null visibility', 'visibility', { visibility: null }],
      ['content that is an array', 'content', { content: [1, 2] }],
      ['content that is a string', 'content', { content: '{"a":1}' }],
      ['content that is a number', 'content', { content: 7 }],
      ['content that is null', 'content', { content: null }],
      ['an unknown property', 'color', { color: 'red' }],
      ['an ownerId, which is not writable', 'ownerId', { ownerId: randomUUID() }],
    ];
    it.each(invalid)('POST with %s', async (_case, field, body) => {
      const before = (await everything()).length;
      const response = await t.request('POST', '/api/diagrams', {
        token: owner.token,
        body: { name: 'Valid name', ...body },
      });
      expectFieldError(response, field);
      expect((await everything()).length).toBe(before);
    });

    it('POST without a name at all', async () => {
      const before = (await everything()).length;
      const response = await t.request('POST', '/api/diagrams', {
        token: owner.token,
        body: { visibility: 'public' },
      });
      expectFieldError(response, 'name');
      expect((await everything()).length).toBe(before);
    });

    it('POST with content over 1 MiB serialized (in a body under 1 MiB)', async () => {
      const before = (await everything()).length;
      const rawBody = inflatingBody(MIB + 1);
      expect(Buffer.byteLength(rawBody)).toBeLessThan(MIB);
      const response = await t.request('POST', '/api/diagrams', {
        token: owner.token,
        rawBody,
        headers: { 'content-type': 'application/json' },
      });
      expectFieldError(response, 'content');
      expect(response.body.error).toMatch(/1048576 bytes/);
      expect((await everything()).length).toBe(before);
    });

    it('POST with a body over 1 MiB: 413, nothing written', async () => {
      const before = (await everything()).length;
      const response = await t.request('POST', '/api/diagrams', {
        token: owner.token,
        body: { name: 'too big', content: { text: 'x'.repeat(MIB) } },
      });
      expect(response.status).toBe(413);
      expectErrorBody(response, /1048576 bytes/);
      expect((await everything()).length).toBe(before);
    });

    const invalidUpdates: [string, string, Record<string, unknown>][] = [
      ['a null name', 'name', { name: null }],
      ['an empty name', 'name', { name: '' }],
      ['a name of 256 characters', 'name', { name: 'n'.repeat(256) }],
      ['a description of 2001 characters', 'description', { description: 'd'.repeat(2001) }],
      ['a null visibility', 'visibility', { visibility: null }],
      ['an unknown visibility', 'visibility', { visibility: 'shared' }],
      ['null content', 'content', { content: null }],
      ['content that is an array', 'content', { content: [] }],
      ['content that is a string', 'content', { content: 'x' }],
      ['an unknown property', 'color', { color: 'red' }],
    ];
    it.each(invalidUpdates)('PUT with %s, the diagram left unchanged', async (_c, field, body) => {
      const diagram = await create(owner.token, { description: 'kept', content: NESTED });
      const response = await t.request('PUT', `/api/diagrams/${diagram.id}`, {
        token: owner.token,
        body: { ...body },
      });
      expectFieldError(response, field);
      expect(await read(diagram.id)).toEqual(diagram);
    });
  });

  describe('GET /api/diagrams/:id', () => {
    it('answers the diagram with its content', async () => {
      const diagram = await create(owner.token, { visibility: 'public', content: NESTED });
      const response = await t.request('GET', `/api/diagrams/${diagram.id}`, {
        token: otherEditor.token,
      });
      expect(response.status).toBe(200);
      expectDiagram(response.body, { ...diagram });
      expect(response.body).toEqual(diagram);
    });

    it.each([
      ['an unknown UUID', randomUUID()],
      ['an id that is no UUID', 'not-a-diagram'],
      ['an upper-case form of no stored id', randomUUID().toUpperCase()],
      ['an id of 100 characters', 'x'.repeat(100)],
      ['an id with a NUL byte', '%00'],
      ['an id with odd characters', encodeURIComponent("é' OR 1=1 --")],
    ])('is 404 for %s, on GET, PUT and DELETE', async (_case, id) => {
      for (const method of ['GET', 'PUT', 'DELETE']) {
        const response = await t.request(method, `/api/diagrams/${id}`, {
          token: admin,
          ...(method === 'PUT' && { body: { name: 'x' } }),
        });
        expect(response.status).toBe(404);
        expectErrorBody(response, /not found/);
      }
    });
  });

  describe('PUT /api/diagrams/:id', () => {
    it('changes the given fields only and answers the diagram', async () => {
      const diagram = await madeAMinuteAgo(
        await create(owner.token, { description: 'before', content: NESTED }),
      );
      const response = await t.request('PUT', `/api/diagrams/${diagram.id}`, {
        token: owner.token,
        body: { name: 'Renamed', visibility: 'public' },
      });
      expect(response.status).toBe(200);
      expectDiagram(response.body, {
        id: diagram.id,
        name: 'Renamed',
        description: 'before',
        visibility: 'public',
        ownerId: owner.id,
        content: NESTED,
        createdAt: diagram.createdAt,
      });
      expect(response.body.updatedAt > diagram.updatedAt).toBe(true);
      expect(await read(diagram.id)).toEqual(response.body);
    });

    it('clears the description with null', async () => {
      const diagram = await create(owner.token, { description: 'to be cleared' });
      const response = await t.request('PUT', `/api/diagrams/${diagram.id}`, {
        token: owner.token,
        body: { description: null },
      });
      expect(response.status).toBe(200);
      expect(response.body.description).toBeNull();
      expect((await read(diagram.id)).description).toBeNull();
    });

    it('replaces the content whole', async () => {
      const diagram = await create(owner.token, { content: NESTED });
      const response = await t.request('PUT', `/api/diagrams/${diagram.id}`, {
        token: owner.token,
        body: { content: { only: 'this' } },
      });
      expect(response.status).toBe(200);
      expect(response.body.content).toEqual({ only: 'this' });
    });

    it('accepts an empty body: nothing changes but updatedAt', async () => {
      const diagram = await madeAMinuteAgo(
        await create(owner.token, { description: 'same', content: NESTED }),
      );
      const response = await t.request('PUT', `/api/diagrams/${diagram.id}`, {
        token: owner.token,
        body: {},
      });
      expect(response.status).toBe(200);
      const { updatedAt, ...rest } = response.body;
      expect({ ...rest, updatedAt: diagram.updatedAt }).toEqual(diagram);
      expect(updatedAt > diagram.updatedAt).toBe(true);
    });

    it("lets an admin change another user's diagram, which keeps its owner", async () => {
      const diagram = await create(owner.token);
      const response = await t.request('PUT', `/api/diagrams/${diagram.id}`, {
        token: admin,
        body: { name: 'Changed by the admin' },
      });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ name: 'Changed by the admin', ownerId: owner.id });
    });
  });

  describe('DELETE /api/diagrams/:id', () => {
    it('answers 204 with no body; the diagram is gone', async () => {
      const diagram = await create(owner.token);
      const response = await t.request('DELETE', `/api/diagrams/${diagram.id}`, {
        token: owner.token,
      });
      expect(response.status).toBe(204);
      expect(response.body).toBeUndefined();
      const again = await t.request('GET', `/api/diagrams/${diagram.id}`, { token: admin });
      expect(again.status).toBe(404);
      expect((await everything()).map((d) => d.id)).not.toContain(diagram.id);
    });
  });

  describe('who may do what', () => {
    type Caller = 'owner editor' | 'other editor' | 'viewer' | 'admin';
    // prettier-ignore
    const MATRIX: [Caller, 'private' | 'public', number, boolean, number, number][] = [
      // caller          diagram    GET one  listed  PUT  DELETE
      ['owner editor',  'private',  200,     true,   200, 204],
      ['owner editor',  'public',   200,     true,   200, 204],
      ['other editor',  'private',  404,     false,  404, 404],
      ['other editor',  'public',   200,     true,   403, 403],
      ['viewer',        'private',  404,     false,  404, 404],
      ['viewer',        'public',   200,     true,   403, 403],
      ['admin',         'private',  200,     true,   200, 204],
      ['admin',         'public',   200,     true,   200, 204],
    ];
    type Visibility = (typeof MATRIX)[number][1];

    const tokenOf = (caller: Caller): string =>
      ({
        'owner editor': owner.token,
        'other editor': otherEditor.token,
        viewer: viewer.token,
        admin,
      })[caller];

    const listCases = MATRIX.map(([caller, visibility, , listed]) => [caller, visibility, listed]);
    it.each(listCases as [Caller, Visibility, boolean][])(
      '%s, %s diagram, appears in the list: %p',
      async (caller, visibility, listed) => {
        const diagram = await create(owner.token, { name: 'Matrix', visibility });
        const ids = (await list(tokenOf(caller))).body.map((d) => d.id);
        expect(ids.includes(diagram.id)).toBe(listed);
      },
    );

    const getCases = MATRIX.map(([caller, visibility, get]) => [caller, visibility, get]);
    it.each(getCases as [Caller, Visibility, number][])(
      '%s, %s diagram, GET one: %p',
      async (caller, visibility, expected) => {
        const diagram = await create(owner.token, { name: 'Matrix', visibility });
        const response = await t.request('GET', `/api/diagrams/${diagram.id}`, {
          token: tokenOf(caller),
        });
        expect(response.status).toBe(expected);
        if (expected === 200) expect(response.body).toEqual(diagram);
        else expectErrorBody(response, /not found/);
      },
    );

    const changeCases = MATRIX.flatMap(([caller, visibility, , , put, del]) => [
      [caller, visibility, 'PUT', put],
      [caller, visibility, 'DELETE', del],
    ]);
    it.each(changeCases as [Caller, Visibility, 'PUT' | 'DELETE', number][])(
      '%s, %s diagram, %s: %p',
      async (caller, visibility, method, expected) => {
        const diagram = await create(owner.token, { name: 'Matrix', visibility });
        const response = await t.request(method, `/api/diagrams/${diagram.id}`, {
          token: tokenOf(caller),
          ...(method === 'PUT' && { body: { name: 'Changed' } }),
        });
        expect(response.status).toBe(expected);
        if (expected >= 400) expectErrorBody(response);
        // Refused means untouched; allowed means done.
        const after = await t.request('GET', `/api/diagrams/${diagram.id}`, { token: admin });
        if (method === 'DELETE') {
          expect(after.status).toBe(expected === 204 ? 404 : 200);
        } else {
          expect(after.body.name).toBe(expected === 200 ? 'Changed' : 'Matrix');
        }
      },
    );

    it('a demoted owner (now a viewer) still reads its diagram but gets 403 on changes', async () => {
      const demoted = await t.createUser('editor');
      const diagram = await create(demoted.token, { name: 'Mine' });
      const demotion = await t.request('PUT', `/api/users/${demoted.id}`, {
        token: admin,
        body: { role: 'viewer' },
      });
      expect(demotion.status).toBe(200);
      const get = await t.request('GET', `/api/diagrams/${diagram.id}`, { token: demoted.token });
      expect(get.status).toBe(200);
      const put = await t.request('PUT', `/api/diagrams/${diagram.id}`, {
        token: demoted.token,
        body: { name: 'Changed' },
      });
      expect(put.status).toBe(403);
      expectErrorBody(put, /editor/);
      const del = await t.request('DELETE', `/api/diagrams/${diagram.id}`, {
        token: demoted.token,
      });
      expect(del.status).toBe(403);
      expect(await read(diagram.id)).toEqual(diagram);
    });
  });

  describe('GET /api/diagrams', () => {
    beforeAll(async () => {
      // Enough of each kind that every caller's list has several pages.
      for (const token of [owner.token, otherEditor.token, admin]) {
        for (const visibility of ['private', 'public', 'private']) {
          await create(token, { name: `listed ${visibility}`, visibility });
        }
      }
    });

    it('answers a bare array of summaries (no content), oldest first', async () => {
      const response = await list(owner.token);
      expect(Array.isArray(response.body)).toBe(true);
      expect(response.body.length).toBeGreaterThan(0);
      for (const item of response.body) {
        expect(Object.keys(item).sort()).toEqual(SUMMARY_KEYS);
      }
      const order = response.body.map((d) => [d.createdAt, d.id].join(' '));
      expect(order).toEqual([...order].sort());
    });

    it('a summary carries the same values as the diagram itself', async () => {
      const diagram = await create(owner.token, { description: 'summed up', content: NESTED });
      const item = (await list(owner.token)).body.find((d) => d.id === diagram.id);
      const summary = { ...diagram };
      delete summary.content;
      expect(item).toEqual(summary);
    });

    it.each([
      ['owner editor', () => owner],
      ['other editor', () => otherEditor],
      ['viewer', () => viewer],
      ['admin', () => ({ id: adminId, token: admin })],
    ])(
      'shows the %s its own and the public diagrams, X-Total-Count their number',
      async (_c, who) => {
        const caller = who();
        const all = await everything();
        const expected =
          caller.token === admin
            ? all
            : all.filter((d) => d.visibility === 'public' || d.ownerId === caller.id);
        const response = await list(caller.token);
        expect(response.body).toEqual(expected);
        expect(response.headers.get('x-total-count')).toBe(String(expected.length));
      },
    );

    it('admin sees every diagram, private ones of others included', async () => {
      const mine = await create(otherEditor.token, { visibility: 'private' });
      const response = await list(admin);
      expect(response.body.map((d) => d.id)).toContain(mine.id);
      expect(Number(response.headers.get('x-total-count'))).toBe(response.body.length);
    });

    it.each([
      ['owner editor', () => owner.token],
      ['viewer', () => viewer.token],
      ['admin', () => admin],
    ])('pages the %s list without overlap or gap', async (_c, tokenOf) => {
      const token = tokenOf();
      const whole = await list(token);
      const total = whole.body.length;
      expect(total).toBeGreaterThan(4);
      const seen: any[] = [];
      for (let offset = 0; offset < total + 2; offset += 2) {
        const page = await list(token, `?limit=2&offset=${offset}`);
        expect(page.headers.get('x-total-count')).toBe(String(total));
        expect(page.body.length).toBe(Math.max(0, Math.min(2, total - offset)));
        seen.push(...page.body);
      }
      expect(seen).toEqual(whole.body);
      expect(new Set(seen.map((d) => d.id)).size).toBe(total);
    });

    it('without limit answers every diagram from offset on', async () => {
      const whole = (await list(admin)).body;
      const rest = await list(admin, '?offset=3');
      expect(rest.body).toEqual(whole.slice(3));
      expect(rest.headers.get('x-total-count')).toBe(String(whole.length));
      const limited = await list(admin, '?limit=1000');
      expect(limited.body).toEqual(whole);
    });

    it.each([
      ['limit=0', 'limit'],
      ['limit=1001', 'limit'],
      ['limit=abc', 'limit'],
      ['limit=2.5', 'limit'],
      ['limit=', 'limit'],
      ['offset=-1', 'offset'],
      ['offset=x', 'offset'],
      // Past what the databases take as an OFFSET or a LIMIT: a 400, not their error.
      ['offset=9223372036854775807', 'offset'],
      ['offset=2147483648', 'offset'],
      ['limit=9223372036854775807', 'limit'],
      ['limit=1&offset=9223372036854775807', 'offset'],
      ['owner=me', 'owner'],
    ])('is 400 naming the parameter for ?%s', async (query, parameter) => {
      const response = await t.request('GET', `/api/diagrams?${query}`, { token: owner.token });
      expect(response.status).toBe(400);
      expectErrorBody(response, new RegExp(`\\b${parameter}\\b`));
    });

    it.each(['?offset=2147483647', '?limit=1000&offset=2147483647'])(
      'answers no diagram at the largest offset (%s), with the total',
      async (query) => {
        const whole = (await list(admin)).body;
        const response = await list(admin, query);
        expect(response.status).toBe(200);
        expect(response.body).toEqual([]);
        expect(response.headers.get('x-total-count')).toBe(String(whole.length));
      },
    );

    it('is 401 without a token', async () => {
      const response = await t.request('GET', '/api/diagrams');
      expect(response.status).toBe(401);
      expectErrorBody(response);
    });
  });

  describe("a deleted owner's diagrams", () => {
    it('stay, ownerless: visible to admins, public ones to all, changeable by admins only', async () => {
      const leaving = await t.createUser('editor');
      const kept = await create(leaving.token, { name: 'Private leftover', content: NESTED });
      const shared = await create(leaving.token, { name: 'Public leftover', visibility: 'public' });
      const deletion = await t.request('DELETE', `/api/users/${leaving.id}`, { token: admin });
      expect(deletion.status).toBe(204);

      expect(await read(kept.id)).toEqual({ ...kept, ownerId: null });
      const listed = (await everything()).find((d) => d.id === kept.id);
      expect(listed).toMatchObject({ id: kept.id, ownerId: null });

      const hidden = await t.request('GET', `/api/diagrams/${kept.id}`, {
        token: otherEditor.token,
      });
      expect(hidden.status).toBe(404);
      const visible = await t.request('GET', `/api/diagrams/${shared.id}`, {
        token: otherEditor.token,
      });
      expect(visible.status).toBe(200);
      expect(visible.body.ownerId).toBeNull();
      const refused = await t.request('PUT', `/api/diagrams/${shared.id}`, {
        token: otherEditor.token,
        body: { name: 'Taken over' },
      });
      expect(refused.status).toBe(403);

      const changed = await t.request('PUT', `/api/diagrams/${kept.id}`, {
        token: admin,
        body: { name: 'Adopted' },
      });
      expect(changed.status).toBe(200);
      expect(changed.body).toMatchObject({ name: 'Adopted', ownerId: null });
      const deleted = await t.request('DELETE', `/api/diagrams/${kept.id}`, { token: admin });
      expect(deleted.status).toBe(204);
    });
  });
});
