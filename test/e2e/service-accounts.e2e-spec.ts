import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { User } from '../../src/database/entities/user.entity.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, expectErrorBody, TestApp } from '../support/test-app.js';

describe("service accounts and the admin routes of any user's keys", () => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await TestApp.start();
    admin = await t.login();
  });
  afterAll(async () => {
    await t.close();
  });

  async function createService(role = 'editor', name = 'ci scanner') {
    const response = await t.request('POST', '/api/users', {
      token: admin,
      body: { kind: 'service', name, role },
    });
    expect(response.status).toBe(201);
    return response.body as { id: string; kind: string; email: null; role: string };
  }

  describe('POST /api/users with kind "service"', () => {
    it('creates an account with no e-mail and no password (201), listed with its kind', async () => {
      const response = await t.request('POST', '/api/users', {
        token: admin,
        body: { kind: 'service', name: 'nightly nmap', role: 'editor' },
      });
      expect(response.status).toBe(201);
      expect(response.body).toEqual({
        id: expect.any(String),
        kind: 'service',
        email: null,
        name: 'nightly nmap',
        role: 'editor',
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      const listed = await t.request('GET', '/api/users', { token: admin });
      expect(listed.body).toContainEqual(response.body);
      // People keep their kind and e-mail.
      expect(listed.body.find((u: any) => u.email === 'admin@localhost').kind).toBe('person');
    });

    it('lets several service accounts exist, none with an e-mail', async () => {
      const first = await createService('viewer', 'one');
      const second = await createService('viewer', 'two');
      expect(first.id).not.toBe(second.id);
      expect([first.email, second.email]).toEqual([null, null]);
    });

    it.each([
      ['an e-mail', 'email', { email: 'ci@example.com' }],
      ['a password', 'password', { password: 'a-long-password-1' }],
      ['an unknown kind', 'kind', { kind: 'robot' }],
      ['a null kind', 'kind', { kind: null }],
    ])('refuses %s (400 naming the field), creating nothing', async (_label, field, extra) => {
      const before = await t.request('GET', '/api/users', { token: admin });
      const response = await t.request('POST', '/api/users', {
        token: admin,
        body: { kind: 'service', name: 'refused', role: 'viewer', ...extra },
      });
      expect(response.status).toBe(400);
      expectErrorBody(response, new RegExp(`\\b${field}\\b`));
      expect((await t.request('GET', '/api/users', { token: admin })).body).toEqual(before.body);
    });

    it('still requires an e-mail and a password of a person', async () => {
      for (const [field, body] of [
        ['email', { kind: 'person', name: 'P', password: 'a-long-password-1' }],
        ['password', { name: 'P', email: `p-${randomUUID()}@example.com` }],
      ] as const) {
        const response = await t.request('POST', '/api/users', { token: admin, body });
        expect(response.status).toBe(400);
        expectErrorBody(response, new RegExp(`\\b${field}\\b`));
      }
    });

    it('refuses a password set later on a service account (400), and changes nothing', async () => {
      const service = await createService();
      const response = await t.request('PUT', `/api/users/${service.id}`, {
        token: admin,
        body: { password: 'a-long-password-1' },
      });
      expect(response.status).toBe(400);
      expectErrorBody(response, /\bpassword\b/);
      const renamed = await t.request('PUT', `/api/users/${service.id}`, {
        token: admin,
        body: { name: 'renamed', role: 'viewer' },
      });
      expect(renamed.status).toBe(200);
      expect(renamed.body).toMatchObject({ kind: 'service', email: null, name: 'renamed' });
    });

    it('is refused to a non-admin (403)', async () => {
      const editor = await t.createUser('editor');
      const response = await t.request('POST', '/api/users', {
        token: editor.token,
        body: { kind: 'service', name: 'x', role: 'viewer' },
      });
      expect(response.status).toBe(403);
      expectErrorBody(response);
    });
  });

  describe('/api/users/:id/api-keys', () => {
    it("lets an admin create, list and revoke a service account's keys", async () => {
      const service = await createService('editor');
      const created = await t.request('POST', `/api/users/${service.id}/api-keys`, {
        token: admin,
        body: { name: 'ci', scopes: ['ingest'], sources: ['nmap-dmz'] },
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        name: 'ci',
        scopes: ['ingest'],
        sources: ['nmap-dmz'],
        allowedCidrs: null,
      });
      expect(created.body.key).toMatch(/^amk_/);

      // The key acts as the service account.
      const me = await t.request('GET', '/api/auth/me', { token: created.body.key });
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({ id: service.id, kind: 'service', email: null });

      const listed = await t.request('GET', `/api/users/${service.id}/api-keys`, { token: admin });
      expect(listed.status).toBe(200);
      const withoutSecret: Record<string, unknown> = { ...created.body };
      delete withoutSecret.key;
      expect(listed.body).toEqual([
        { ...withoutSecret, lastUsedAt: expect.any(String), lastUsedIp: '127.0.0.1' },
      ]);
      expect(JSON.stringify(listed.body)).not.toContain(created.body.key);
      // Not the admin's own keys.
      const own = await t.request('GET', '/api/auth/api-keys', { token: admin });
      expect(own.body.map((k: any) => k.id)).not.toContain(created.body.id);

      const revoked = await t.request(
        'DELETE',
        `/api/users/${service.id}/api-keys/${created.body.id}`,
        { token: admin },
      );
      expect(revoked.status).toBe(204);
      expect((await t.request('GET', '/api/auth/me', { token: created.body.key })).status).toBe(
        401,
      );
      const after = await t.request('GET', `/api/users/${service.id}/api-keys`, { token: admin });
      expect(after.body).toEqual([]);
    });

    it("gives a key every scope of its user's role by default, the user's and not the admin's", async () => {
      const viewer = await createService('viewer');
      const created = await t.request('POST', `/api/users/${viewer.id}/api-keys`, {
        token: admin,
        body: { name: 'reader' },
      });
      expect(created.status).toBe(201);
      expect(created.body.scopes).toEqual(['read']);
      const beyond = await t.request('POST', `/api/users/${viewer.id}/api-keys`, {
        token: admin,
        body: { name: 'writer', scopes: ['read', 'write'] },
      });
      expect(beyond.status).toBe(400);
      expectErrorBody(beyond, /scopes\[1\].*viewer/);
      const listed = await t.request('GET', `/api/users/${viewer.id}/api-keys`, { token: admin });
      expect(listed.body.map((k: any) => k.name)).toEqual(['reader']);
    });

    it('answers 404 for an unknown user, and for a key of another user', async () => {
      const unknown = randomUUID();
      for (const [method, path, body] of [
        ['GET', `/api/users/${unknown}/api-keys`, undefined],
        ['POST', `/api/users/${unknown}/api-keys`, { name: 'k' }],
        ['DELETE', `/api/users/${unknown}/api-keys/${randomUUID()}`, undefined],
        ['POST', `/api/users/${unknown}/api-keys/${randomUUID()}/rotate`, {}],
      ] as const) {
        const response = await t.request(method, path, { token: admin, body });
        expect({ method, path, status: response.status }).toEqual({ method, path, status: 404 });
        expectErrorBody(response);
      }
      const owner = await createService();
      const other = await createService();
      const key = await t.request('POST', `/api/users/${owner.id}/api-keys`, {
        token: admin,
        body: { name: 'k' },
      });
      const wrongUser = await t.request(
        'DELETE',
        `/api/users/${other.id}/api-keys/${key.body.id}`,
        { token: admin },
      );
      expect(wrongUser.status).toBe(404);
      expect((await t.request('GET', '/api/auth/me', { token: key.body.key })).status).toBe(200);
    });

    it('is refused to a non-admin (403) and to no one signed in (401)', async () => {
      const service = await createService();
      const editor = await t.createUser('editor');
      const routes = [
        ['GET', `/api/users/${service.id}/api-keys`, undefined],
        ['POST', `/api/users/${service.id}/api-keys`, { name: 'k' }],
        ['DELETE', `/api/users/${service.id}/api-keys/${randomUUID()}`, undefined],
        ['POST', `/api/users/${service.id}/api-keys/${randomUUID()}/rotate`, {}],
      ] as const;
      for (const [method, path, body] of routes) {
        const forbidden = await t.request(method, path, { token: editor.token, body });
        expect({ method, path, status: forbidden.status }).toEqual({ method, path, status: 403 });
        expectErrorBody(forbidden);
        const anonymous = await t.request(method, path, { body });
        expect({ method, path, status: anonymous.status }).toEqual({ method, path, status: 401 });
      }
      const listed = await t.request('GET', `/api/users/${service.id}/api-keys`, { token: admin });
      expect(listed.body).toEqual([]);
    });

    it('goes with its user: deleting a service account stops its keys', async () => {
      const service = await createService();
      const key = await t.request('POST', `/api/users/${service.id}/api-keys`, {
        token: admin,
        body: { name: 'k' },
      });
      expect((await t.request('GET', '/api/auth/me', { token: key.body.key })).status).toBe(200);
      const deleted = await t.request('DELETE', `/api/users/${service.id}`, { token: admin });
      expect(deleted.status).toBe(204);
      expect((await t.request('GET', '/api/auth/me', { token: key.body.key })).status).toBe(401);
    });
  });

  describe('signing in', () => {
    it('a service account cannot sign in with a password, even one written into its row (401)', async () => {
      const service = await createService('admin', 'no login');
      // As if an e-mail and the admin's password hash had been put on it by hand.
      const users = t.dataSource.getRepository(User);
      const adminRow = await users.findOneByOrFail({ email: ADMIN_EMAIL });
      await users.update(service.id, {
        email: 'svc@localhost',
        passwordHash: adminRow.passwordHash,
      });
      const response = await t.request('POST', '/api/auth/login', {
        body: { email: 'svc@localhost', password: ADMIN_PASSWORD },
      });
      expect(response.status).toBe(401);
      expectErrorBody(response, /Invalid e-mail or password/);
      // The same answer as a wrong password.
      const wrong = await t.request('POST', '/api/auth/login', {
        body: { email: ADMIN_EMAIL, password: 'not-the-password-1' },
      });
      expect(wrong.body).toEqual(response.body);
    });

    it('its changes are recorded under its id, with no e-mail', async () => {
      const service = await createService('editor');
      const key = await t.request('POST', `/api/users/${service.id}/api-keys`, {
        token: admin,
        body: { name: 'writer' },
      });
      const asset = await t.request('POST', '/api/assets', {
        token: key.body.key,
        body: { name: `svc-${randomUUID()}`, type: 'server' },
      });
      expect(asset.status).toBe(201);
      const changes = await t.request('GET', `/api/assets/${asset.body.id}/changes`, {
        token: admin,
      });
      expect(changes.status).toBe(200);
      expect(changes.body[0].actor).toEqual({
        userId: service.id,
        email: null,
        apiKeyId: key.body.id,
        apiKeyPrefix: key.body.prefix,
      });
    });
  });
});
