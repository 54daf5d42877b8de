import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { expectErrorBody, TestApp } from '../support/test-app.js';

describe('API key rotation', () => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await TestApp.start();
    admin = await t.login();
  });
  afterAll(async () => {
    await t.close();
  });

  async function createKey(token: string, body: Record<string, unknown> = {}) {
    const response = await t.request('POST', '/api/auth/api-keys', {
      token,
      body: { name: 'ci', ...body },
    });
    expect(response.status).toBe(201);
    return response.body;
  }

  const listed = async (token: string, id: string) =>
    (await t.request('GET', '/api/auth/api-keys', { token })).body.find((k: any) => k.id === id);
  const works = async (key: string) =>
    (await t.request('GET', '/api/auth/me', { token: key })).status;

  it('answers a new key (201) with the same name, scopes, sources, CIDRs and expiry', async () => {
    const editor = await t.createUser('editor');
    const old = await createKey(editor.token, {
      name: 'nightly',
      scopes: ['ingest'],
      sources: ['nmap-dmz'],
      allowedCidrs: ['127.0.0.0/8'],
      expiresAt: '2099-01-01T00:00:00.000Z',
    });
    const response = await t.request('POST', `/api/auth/api-keys/${old.id}/rotate`, {
      token: editor.token,
      body: { graceSeconds: 600 },
    });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.any(String),
      key: expect.stringMatching(/^amk_/),
      prefix: expect.stringMatching(/^amk_/),
      name: 'nightly',
      scopes: ['ingest'],
      sources: ['nmap-dmz'],
      allowedCidrs: ['127.0.0.0/8'],
      createdAt: expect.any(String),
      expiresAt: '2099-01-01T00:00:00.000Z',
      lastUsedAt: null,
      lastUsedIp: null,
    });
    expect(response.body.id).not.toBe(old.id);
    expect(response.body.key).not.toBe(old.key);
    expect(response.body.prefix).not.toBe(old.prefix);
    // Both work during the grace period.
    expect(await works(response.body.key)).toBe(200);
    expect(await works(old.key)).toBe(200);
  });

  it('keeps the old key working for graceSeconds (default 3600), its expiry set to the end of it', async () => {
    const old = await createKey(admin);
    const before = Date.now();
    const rotated = await t.request('POST', `/api/auth/api-keys/${old.id}/rotate`, {
      token: admin,
      body: {},
    });
    const after = Date.now();
    expect(rotated.status).toBe(201);
    expect(rotated.body.expiresAt).toBeNull();
    const expiresAt = Date.parse((await listed(admin, old.id)).expiresAt);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 3_600_000 - 1000);
    expect(expiresAt).toBeLessThanOrEqual(after + 3_600_000 + 1000);
    expect(await works(old.key)).toBe(200);
  });

  it('with graceSeconds 0, the old key stops at once', async () => {
    const old = await createKey(admin);
    const rotated = await t.request('POST', `/api/auth/api-keys/${old.id}/rotate`, {
      token: admin,
      body: { graceSeconds: 0 },
    });
    expect(rotated.status).toBe(201);
    expect(await works(old.key)).toBe(401);
    expect(await works(rotated.body.key)).toBe(200);
  });

  it('never moves an expiry later than it was', async () => {
    const soon = new Date(Date.now() + 120_000).toISOString();
    const old = await createKey(admin, { expiresAt: soon });
    const rotated = await t.request('POST', `/api/auth/api-keys/${old.id}/rotate`, {
      token: admin,
      body: { graceSeconds: 86_400 },
    });
    expect(rotated.status).toBe(201);
    expect(rotated.body.expiresAt).toBe(soon);
    expect((await listed(admin, old.id)).expiresAt).toBe(soon);
  });

  it('a key can be rotated again during its grace period', async () => {
    const old = await createKey(admin);
    const first = await t.request('POST', `/api/auth/api-keys/${old.id}/rotate`, {
      token: admin,
      body: { graceSeconds: 60 },
    });
    const second = await t.request('POST', `/api/auth/api-keys/${old.id}/rotate`, {
      token: admin,
      body: { graceSeconds: 0 },
    });
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(await works(old.key)).toBe(401);
    expect(await works(first.body.key)).toBe(200);
    expect(await works(second.body.key)).toBe(200);
  });

  it('refuses to rotate an expired key (409)', async () => {
    const old = await createKey(admin);
    await t.request('POST', `/api/auth/api-keys/${old.id}/rotate`, {
      token: admin,
      body: { graceSeconds: 0 },
    });
    const again = await t.request('POST', `/api/auth/api-keys/${old.id}/rotate`, {
      token: admin,
      body: {},
    });
    expect(again.status).toBe(409);
    expectErrorBody(again, /expired/);
  });

  it.each([
    ['a negative graceSeconds', { graceSeconds: -1 }],
    ['a graceSeconds over a day', { graceSeconds: 86_401 }],
    ['a fractional graceSeconds', { graceSeconds: 1.5 }],
    ['a graceSeconds as text', { graceSeconds: '60' }],
    ['a null graceSeconds', { graceSeconds: null }],
    ['an unknown property', { grace: 60 }],
  ])('refuses %s (400), rotating nothing', async (_label, body) => {
    const old = await createKey(admin);
    const before = (await t.request('GET', '/api/auth/api-keys', { token: admin })).body;
    const response = await t.request('POST', `/api/auth/api-keys/${old.id}/rotate`, {
      token: admin,
      body,
    });
    expect(response.status).toBe(400);
    expectErrorBody(response, /grace/);
    expect((await t.request('GET', '/api/auth/api-keys', { token: admin })).body).toEqual(before);
  });

  it("answers 404 for an unknown key or another user's key, even to an admin", async () => {
    const owner = await t.createUser('editor');
    const key = await createKey(owner.token);
    for (const id of [randomUUID(), key.id]) {
      const response = await t.request('POST', `/api/auth/api-keys/${id}/rotate`, {
        token: admin,
        body: {},
      });
      expect(response.status).toBe(404);
      expectErrorBody(response);
    }
    expect(await works(key.key)).toBe(200);
    expect((await listed(owner.token, key.id)).expiresAt).toBeNull();
  });

  it("lets an admin rotate any user's key through /api/users/:id/api-keys/:keyId/rotate", async () => {
    const service = await t.request('POST', '/api/users', {
      token: admin,
      body: { kind: 'service', name: 'ci', role: 'editor' },
    });
    const created = await t.request('POST', `/api/users/${service.body.id}/api-keys`, {
      token: admin,
      body: { name: 'ci', scopes: ['ingest'] },
    });
    const rotated = await t.request(
      'POST',
      `/api/users/${service.body.id}/api-keys/${created.body.id}/rotate`,
      { token: admin, body: { graceSeconds: 0 } },
    );
    expect(rotated.status).toBe(201);
    expect(rotated.body.scopes).toEqual(['ingest']);
    expect(await works(created.body.key)).toBe(401);
    const me = await t.request('GET', '/api/auth/me', { token: rotated.body.key });
    expect(me.body.id).toBe(service.body.id);
  });

  it('records the rotation in the change history: the new key created, the old one expiring', async () => {
    const old = await createKey(admin);
    const rotated = await t.request('POST', `/api/auth/api-keys/${old.id}/rotate`, {
      token: admin,
      body: { graceSeconds: 0 },
    });
    const changes = await t.request('GET', '/api/changes?objectType=apiKey', { token: admin });
    expect(changes.status).toBe(200);
    const about = (id: string) => changes.body.filter((change: any) => change.objectId === id);
    expect(about(rotated.body.id).map((c: any) => c.action)).toEqual(['create']);
    expect(about(old.id).map((c: any) => c.action)).toContain('update');
    expect(JSON.stringify(changes.body)).not.toContain(rotated.body.key);
  });
});
