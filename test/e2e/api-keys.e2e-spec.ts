import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes, randomUUID } from 'node:crypto';
import { ApiKey } from '../../src/database/entities/api-key.entity.js';
import { expectErrorBody, TestApp, type ApiResponse } from '../support/test-app.js';

const LISTED_FIELDS = [
  'allowedCidrs',
  'createdAt',
  'expiresAt',
  'id',
  'lastUsedAt',
  'lastUsedIp',
  'name',
  'prefix',
  'scopes',
  'sources',
];
const CREATED_FIELDS = [...LISTED_FIELDS, 'key'].sort();

function isIsoTimestamp(value: unknown): boolean {
  return typeof value === 'string' && new Date(value).toISOString() === value;
}

/** A 400 whose single sentence names `field`. */
function expectFieldError(response: ApiResponse, field: string): void {
  expect(response.status).toBe(400);
  expectErrorBody(response, new RegExp(`\\b${field}\\b`));
}

describe('API keys (/api/auth/api-keys)', () => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await TestApp.start({ LOGIN_RATE_LIMIT: '100000', RATE_LIMIT: '100000' });
    admin = await t.login();
  });
  afterAll(async () => {
    await t.close();
  });

  async function createKey(token: string, body: Record<string, unknown> = { name: 'ci' }) {
    const response = await t.request('POST', '/api/auth/api-keys', { token, body });
    expect(response.status).toBe(201);
    return response.body as {
      id: string;
      name: string;
      key: string;
      prefix: string;
      createdAt: string;
      expiresAt: string | null;
      lastUsedAt: string | null;
    };
  }

  async function listKeys(token: string): Promise<any[]> {
    const response = await t.request('GET', '/api/auth/api-keys', { token });
    expect(response.status).toBe(200);
    expect(Array.isArray(response.body)).toBe(true);
    return response.body;
  }

  describe('POST', () => {
    it('creates a key (201) with exactly the documented fields, shown with its secret', async () => {
      const before = Date.now();
      const response = await t.request('POST', '/api/auth/api-keys', {
        token: admin,
        body: { name: 'scanner' },
      });
      expect(response.status).toBe(201);
      expect(response.body).toEqual({
        id: expect.any(String),
        name: 'scanner',
        key: expect.any(String),
        prefix: expect.any(String),
        scopes: ['read', 'write', 'ingest', 'admin'],
        sources: null,
        allowedCidrs: null,
        createdAt: expect.any(String),
        expiresAt: null,
        lastUsedAt: null,
        lastUsedIp: null,
      });
      expect(Object.keys(response.body).sort()).toEqual(CREATED_FIELDS);
      const { key, prefix, createdAt } = response.body;
      expect(key.startsWith('amk_')).toBe(true);
      expect(prefix.startsWith('amk_')).toBe(true);
      expect(key.startsWith(prefix)).toBe(true);
      expect(key.length).toBeGreaterThan(prefix.length + 16);
      expect(isIsoTimestamp(createdAt)).toBe(true);
      expect(Date.parse(createdAt)).toBeGreaterThanOrEqual(before - 1000);
      expect(Date.parse(createdAt)).toBeLessThanOrEqual(Date.now() + 1000);
    });

    it('gives every key its own secret and prefix', async () => {
      const first = await createKey(admin, { name: 'same name' });
      const second = await createKey(admin, { name: 'same name' });
      expect(second.id).not.toBe(first.id);
      expect(second.prefix).not.toBe(first.prefix);
      expect(second.key).not.toBe(first.key);
    });

    it('authenticates as the creating user on GET /api/auth/me', async () => {
      const user = await t.createUser('editor');
      const me = await t.request('GET', '/api/auth/me', { token: user.token });
      expect(me.status).toBe(200);
      const { key } = await createKey(user.token);
      const viaKey = await t.request('GET', '/api/auth/me', { token: key });
      expect(viaKey.status).toBe(200);
      expect(viaKey.body).toEqual(me.body);
      expect(viaKey.body.email).toBe(user.email);
    });

    it("acts with the creating user's role: a viewer's key is refused /api/users, an admin's is not", async () => {
      const viewer = await t.createUser('viewer');
      const viewerKey = (await createKey(viewer.token)).key;
      const forbidden = await t.request('GET', '/api/users', { token: viewerKey });
      expect(forbidden.status).toBe(403);
      expectErrorBody(forbidden);

      const adminKey = (await createKey(admin)).key;
      const allowed = await t.request('GET', '/api/users', { token: adminKey });
      expect(allowed.status).toBe(200);
      expect(allowed.body.map((u: any) => u.email)).toContain(viewer.email);
    });

    it("follows the user's current role: a demotion applies to an existing key at once", async () => {
      const editor = await t.createUser('editor');
      const { key } = await createKey(editor.token);
      const write = () =>
        t.request('POST', '/api/assets', {
          token: key,
          body: { name: `by-key-${randomUUID()}`, type: 'server' },
        });
      expect((await write()).status).toBe(201);
      const demote = await t.request('PUT', `/api/users/${editor.id}`, {
        token: admin,
        body: { role: 'viewer' },
      });
      expect(demote.status).toBe(200);
      expect((await write()).status).toBe(403);
      const promote = await t.request('PUT', `/api/users/${editor.id}`, {
        token: admin,
        body: { role: 'editor' },
      });
      expect(promote.status).toBe(200);
      expect((await write()).status).toBe(201);
    });

    it('accepts a future expiresAt and returns it normalised to UTC', async () => {
      const created = await createKey(admin, {
        name: 'expiring',
        expiresAt: '2099-06-01T12:00:00+02:00',
      });
      expect(created.expiresAt).toBe('2099-06-01T10:00:00.000Z');
      const listed = (await listKeys(admin)).find((k) => k.id === created.id);
      expect(listed.expiresAt).toBe('2099-06-01T10:00:00.000Z');
      expect((await t.request('GET', '/api/auth/me', { token: created.key })).status).toBe(200);

      const inAnHour = new Date(Date.now() + 3_600_000).toISOString();
      expect((await createKey(admin, { name: 'soon', expiresAt: inAnHour })).expiresAt).toBe(
        inAnHour,
      );
    });

    describe('validation: 400 naming the field, and no key is created', () => {
      const cases: [string, string, Record<string, unknown>][] = [
        ['an expiresAt in the past', 'expiresAt', { name: 'k', expiresAt: '2001-01-01T00:00:00Z' }],
        ['an expiresAt that is not a timestamp', 'expiresAt', { name: 'k', expiresAt: 'tomorrow' }],
        ['an empty expiresAt', 'expiresAt', { name: 'k', expiresAt: '' }],
        ['a numeric expiresAt', 'expiresAt', { name: 'k', expiresAt: Date.now() + 3_600_000 }],
        ['a missing name', 'name', {}],
        ['an empty name', 'name', { name: '' }],
        ['a name that is not a string', 'name', { name: 7 }],
        ['a name of 256 characters', 'name', { name: 'n'.repeat(256) }],
        ['an unknown property', 'owner', { name: 'k', owner: 'someone' }],
      ];

      it.each(cases)('%s', async (_label, field, body) => {
        const before = await listKeys(admin);
        const response = await t.request('POST', '/api/auth/api-keys', { token: admin, body });
        expectFieldError(response, field);
        expect(await listKeys(admin)).toEqual(before);
      });
    });

    it('needs authentication (401)', async () => {
      const response = await t.request('POST', '/api/auth/api-keys', { body: { name: 'anon' } });
      expect(response.status).toBe(401);
      expectErrorBody(response);
    });
  });

  describe('GET', () => {
    it("lists the caller's keys only, never with the secret", async () => {
      const alice = await t.createUser('editor');
      const bob = await t.createUser('editor');
      expect(await listKeys(alice.token)).toEqual([]);

      const a1 = await createKey(alice.token, { name: 'alice one' });
      const a2 = await createKey(alice.token, {
        name: 'alice two',
        expiresAt: '2098-01-01T00:00:00.000Z',
      });
      const b1 = await createKey(bob.token, { name: 'bob one' });

      const aliceKeys = await listKeys(alice.token);
      expect(aliceKeys).toHaveLength(2);
      for (const listed of aliceKeys) {
        expect(Object.keys(listed).sort()).toEqual(LISTED_FIELDS);
        expect(JSON.stringify(listed)).not.toContain(a1.key);
        expect(JSON.stringify(listed)).not.toContain(a2.key);
      }
      const withoutKey = (created: typeof a1) => {
        const rest: Partial<typeof a1> = { ...created };
        delete rest.key;
        return rest;
      };
      expect(aliceKeys).toEqual(expect.arrayContaining([withoutKey(a1), withoutKey(a2)]));

      const bobKeys = await listKeys(bob.token);
      expect(bobKeys).toEqual([withoutKey(b1)]);
      // Not even an admin sees another user's keys here.
      expect((await listKeys(admin)).map((k) => k.id)).not.toContain(a1.id);
    });

    it("lists the owner's keys when called with a key", async () => {
      const user = await t.createUser('viewer');
      const created = await createKey(user.token, { name: 'self' });
      const listed = await listKeys(created.key);
      expect(listed.map((k) => k.id)).toEqual([created.id]);
      expect(listed[0]).not.toHaveProperty('key');
    });
  });

  describe('lastUsedAt', () => {
    it('is null until the key is used, then set; and written at most once a minute', async () => {
      const user = await t.createUser('viewer');
      const created = await createKey(user.token);
      const find = async () => (await listKeys(user.token)).find((k) => k.id === created.id);
      expect((await find()).lastUsedAt).toBeNull();

      const before = Date.now();
      expect((await t.request('GET', '/api/auth/me', { token: created.key })).status).toBe(200);
      const after = Date.now();
      const first = (await find()).lastUsedAt;
      expect(isIsoTimestamp(first)).toBe(true);
      expect((await find()).lastUsedIp).toBe('127.0.0.1');
      expect(Date.parse(first)).toBeGreaterThanOrEqual(before - 1000);
      expect(Date.parse(first)).toBeLessThanOrEqual(after + 1000);

      expect((await t.request('GET', '/api/auth/me', { token: created.key })).status).toBe(200);
      expect((await find()).lastUsedAt).toBe(first);

      // The last use moved back in the database, just within the minute and just past it.
      const usedAgo = async (ms: number) => {
        const lastUsedAt = new Date(Date.now() - ms);
        await t.dataSource.getRepository(ApiKey).update(created.id, { lastUsedAt });
        expect((await t.request('GET', '/api/auth/me', { token: created.key })).status).toBe(200);
        return { before: lastUsedAt.toISOString(), after: (await find()).lastUsedAt };
      };
      const within = await usedAgo(50_000);
      expect(within.after).toBe(within.before);
      const past = await usedAgo(70_000);
      expect(Date.parse(past.after)).toBeGreaterThan(Date.parse(past.before));
    });

    it('is not set by failed attempts with a wrong secret', async () => {
      const user = await t.createUser('viewer');
      const created = await createKey(user.token);
      const tampered = `${created.prefix}_${randomBytes(32).toString('base64url')}`;
      expect((await t.request('GET', '/api/auth/me', { token: tampered })).status).toBe(401);
      const listed = (await listKeys(user.token)).find((k) => k.id === created.id);
      expect(listed.lastUsedAt).toBeNull();
    });
  });

  describe('DELETE', () => {
    it('revokes the key (204): it gets 401 on the very next request', async () => {
      const user = await t.createUser('editor');
      const created = await createKey(user.token);
      expect((await t.request('GET', '/api/auth/me', { token: created.key })).status).toBe(200);

      const response = await t.request('DELETE', `/api/auth/api-keys/${created.id}`, {
        token: user.token,
      });
      expect(response.status).toBe(204);
      expect(response.body).toBeUndefined();

      const me = await t.request('GET', '/api/auth/me', { token: created.key });
      expect(me.status).toBe(401);
      expectErrorBody(me);
      expect((await listKeys(user.token)).map((k) => k.id)).not.toContain(created.id);

      const again = await t.request('DELETE', `/api/auth/api-keys/${created.id}`, {
        token: user.token,
      });
      expect(again.status).toBe(404);
      expectErrorBody(again);
    });

    it('lets a key revoke itself', async () => {
      const user = await t.createUser('viewer');
      const created = await createKey(user.token);
      const response = await t.request('DELETE', `/api/auth/api-keys/${created.id}`, {
        token: created.key,
      });
      expect(response.status).toBe(204);
      expect((await t.request('GET', '/api/auth/me', { token: created.key })).status).toBe(401);
    });

    it('answers 404 for an unknown id', async () => {
      const response = await t.request('DELETE', `/api/auth/api-keys/${randomUUID()}`, {
        token: admin,
      });
      expect(response.status).toBe(404);
      expectErrorBody(response);
    });

    it("answers 404 for another user's key, even to an admin, and the key keeps working", async () => {
      const owner = await t.createUser('editor');
      const other = await t.createUser('editor');
      const created = await createKey(owner.token);

      for (const token of [other.token, admin]) {
        const response = await t.request('DELETE', `/api/auth/api-keys/${created.id}`, { token });
        expect(response.status).toBe(404);
        expectErrorBody(response);
      }
      expect((await t.request('GET', '/api/auth/me', { token: created.key })).status).toBe(200);
      expect((await listKeys(owner.token)).map((k) => k.id)).toEqual([created.id]);
    });
  });

  describe('refused keys', () => {
    it('an expired key gets 401', async () => {
      const user = await t.createUser('viewer');
      const expiresAt = new Date(Date.now() + 3_600_000);
      const created = await createKey(user.token, {
        name: 'short-lived',
        expiresAt: expiresAt.toISOString(),
      });
      expect(created.expiresAt).toBe(expiresAt.toISOString());
      expect((await t.request('GET', '/api/auth/me', { token: created.key })).status).toBe(200);

      // Its hour over: the expiry moved to a moment ago in the database, which the API refuses.
      const expired = new Date(Date.now() - 1_000);
      await t.dataSource.getRepository(ApiKey).update(created.id, { expiresAt: expired });
      const response = await t.request('GET', '/api/auth/me', { token: created.key });
      expect(response.status).toBe(401);
      expectErrorBody(response);
      // Still listed, so that its owner can see and delete it.
      expect((await listKeys(user.token)).map((k) => k.id)).toContain(created.id);
    });

    it('a tampered key (same prefix, another secret) gets 401', async () => {
      const created = await createKey(admin);
      const secret = created.key.slice(created.prefix.length + 1);
      const flipped = (secret[0] === 'A' ? 'B' : 'A') + secret.slice(1);
      for (const token of [
        `${created.prefix}_${flipped}`,
        `${created.prefix}_${randomBytes(32).toString('base64url')}`,
        `${created.key}x`,
        created.key.slice(0, -1),
        created.prefix,
        `${created.prefix}_`,
      ]) {
        const response = await t.request('GET', '/api/auth/me', { token });
        expect({ token, status: response.status }).toEqual({ token, status: 401 });
        expectErrorBody(response);
      }
      expect((await t.request('GET', '/api/auth/me', { token: created.key })).status).toBe(200);
    });

    it('a key whose prefix does not exist gets 401', async () => {
      const token = `amk_${randomBytes(6).toString('hex')}_${randomBytes(32).toString('base64url')}`;
      const response = await t.request('GET', '/api/auth/me', { token });
      expect(response.status).toBe(401);
      expectErrorBody(response);
    });

    it('"amk_" alone and other malformed keys get 401', async () => {
      for (const token of ['amk_', 'amk__', 'amk_zzzzzzzzzzzz_secret', 'amk_' + 'a'.repeat(200)]) {
        const response = await t.request('GET', '/api/auth/me', { token });
        expect({ token, status: response.status }).toEqual({ token, status: 401 });
        expectErrorBody(response);
      }
    });
  });

  describe('as a viewer', () => {
    it('creates, lists and deletes its own keys', async () => {
      const viewer = await t.createUser('viewer');
      const created = await t.request('POST', '/api/auth/api-keys', {
        token: viewer.token,
        body: { name: 'viewer key' },
      });
      expect(created.status).toBe(201);
      expect(Object.keys(created.body).sort()).toEqual(CREATED_FIELDS);

      const listed = await t.request('GET', '/api/auth/api-keys', { token: viewer.token });
      expect(listed.status).toBe(200);
      expect(listed.body).toEqual([
        {
          id: created.body.id,
          name: 'viewer key',
          prefix: created.body.prefix,
          scopes: ['read'],
          sources: null,
          allowedCidrs: null,
          createdAt: created.body.createdAt,
          expiresAt: null,
          lastUsedAt: null,
          lastUsedIp: null,
        },
      ]);

      const deleted = await t.request('DELETE', `/api/auth/api-keys/${created.body.id}`, {
        token: viewer.token,
      });
      expect(deleted.status).toBe(204);
      expect(await listKeys(viewer.token)).toEqual([]);
    });
  });
});
