import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { ADMIN_EMAIL, expectErrorBody, TestApp, type ApiResponse } from '../support/test-app.js';

const USER_FIELDS = ['createdAt', 'email', 'id', 'kind', 'name', 'role', 'updatedAt'];

/** A person's User object exactly: these seven fields, no password or hash, ISO timestamps. */
function expectUser(body: any, expected: { email: string; name: string; role: string }): void {
  expect(body).toEqual({
    id: expect.any(String),
    kind: 'person',
    email: expected.email,
    name: expected.name,
    role: expected.role,
    createdAt: expect.any(String),
    updatedAt: expect.any(String),
  });
  expect(Object.keys(body).sort()).toEqual(USER_FIELDS);
  expect(new Date(body.createdAt).toISOString()).toBe(body.createdAt);
  expect(new Date(body.updatedAt).toISOString()).toBe(body.updatedAt);
}

/** A 400 whose single sentence names `field` (and none of the other user fields). */
function expectFieldError(response: ApiResponse, field: string): void {
  expect(response.status).toBe(400);
  expectErrorBody(response, new RegExp(`\\b${field}\\b`));
  for (const other of ['email', 'name', 'password', 'role'].filter((f) => f !== field)) {
    expect(response.body.error).not.toMatch(new RegExp(`\\b${other}\\b`));
  }
}

let counter = 0;
function uniqueEmail(label: string): string {
  counter += 1;
  return `${label}-${counter}-${Date.now()}@example.com`;
}

const PASSWORD = 'correct-horse-battery';

describe('users (admin only)', () => {
  let t: TestApp;
  let admin: string;
  let adminId: string;

  beforeAll(async () => {
    t = await TestApp.start({ LOGIN_RATE_LIMIT: '100000', RATE_LIMIT: '100000' });
    admin = await t.login();
    adminId = (await t.request('GET', '/api/auth/me', { token: admin })).body.id;
  });
  afterAll(async () => {
    await t.close();
  });

  async function listUsers(): Promise<any[]> {
    const response = await t.request('GET', '/api/users', { token: admin });
    expect(response.status).toBe(200);
    return response.body;
  }

  async function adminCount(): Promise<number> {
    return (await listUsers()).filter((user) => user.role === 'admin').length;
  }

  describe('the last admin', () => {
    it('cannot be deleted (409), and stays able to act', async () => {
      expect(await adminCount()).toBe(1);
      const response = await t.request('DELETE', `/api/users/${adminId}`, { token: admin });
      expect(response.status).toBe(409);
      expectErrorBody(response, /admin/);
      const me = await t.request('GET', '/api/auth/me', { token: admin });
      expect(me.status).toBe(200);
      expect(me.body.role).toBe('admin');
      expect((await listUsers()).map((user) => user.id)).toContain(adminId);
    });

    it('cannot be demoted through PUT (409), and nothing of the update is applied', async () => {
      expect(await adminCount()).toBe(1);
      const before = (await listUsers()).find((user) => user.id === adminId);
      for (const role of ['viewer', 'editor']) {
        const response = await t.request('PUT', `/api/users/${adminId}`, {
          token: admin,
          body: { role, name: 'Renamed admin' },
        });
        expect(response.status).toBe(409);
        expectErrorBody(response, /admin/);
      }
      const after = (await listUsers()).find((user) => user.id === adminId);
      expect(after).toEqual(before);
      expect((await t.request('GET', '/api/users', { token: admin })).status).toBe(200);
    });

    it('may keep the admin role through PUT (role=admin is not a demotion)', async () => {
      const response = await t.request('PUT', `/api/users/${adminId}`, {
        token: admin,
        body: { role: 'admin' },
      });
      expect(response.status).toBe(200);
      expectUser(response.body, { email: ADMIN_EMAIL, name: response.body.name, role: 'admin' });
    });

    it('with two admins, one may be demoted and deleted; then the remaining one is last again', async () => {
      const second = await t.createUser('admin');
      expect(await adminCount()).toBe(2);

      const demoted = await t.request('PUT', `/api/users/${second.id}`, {
        token: admin,
        body: { role: 'editor' },
      });
      expect(demoted.status).toBe(200);
      expect(demoted.body.role).toBe('editor');
      const promoted = await t.request('PUT', `/api/users/${second.id}`, {
        token: admin,
        body: { role: 'admin' },
      });
      expect(promoted.status).toBe(200);
      expect(promoted.body.role).toBe('admin');

      const deleted = await t.request('DELETE', `/api/users/${second.id}`, { token: admin });
      expect(deleted.status).toBe(204);
      expect(deleted.body).toBeUndefined();
      expect(await adminCount()).toBe(1);

      expect((await t.request('DELETE', `/api/users/${adminId}`, { token: admin })).status).toBe(
        409,
      );
    });

    it('an admin may delete itself while another admin remains', async () => {
      const second = await t.createUser('admin');
      const selfDeleted = await t.request('DELETE', `/api/users/${second.id}`, {
        token: second.token,
      });
      expect(selfDeleted.status).toBe(204);
      expect((await t.request('GET', '/api/auth/me', { token: second.token })).status).toBe(401);
      expect(await adminCount()).toBe(1);
    });
  });

  describe('GET /api/users', () => {
    it('lists User objects, never with a password or hash', async () => {
      const created = await t.createUser('editor');
      const users = await listUsers();
      expect(Array.isArray(users)).toBe(true);
      expect(users.length).toBeGreaterThanOrEqual(2);
      for (const user of users) {
        expect(Object.keys(user).sort()).toEqual(USER_FIELDS);
        expect(JSON.stringify(user)).not.toMatch(/\$argon2|\$scrypt/);
      }
      const bootstrap = users.find((user) => user.id === adminId);
      expectUser(bootstrap, { email: ADMIN_EMAIL, name: bootstrap.name, role: 'admin' });
      const editor = users.find((user) => user.id === created.id);
      expectUser(editor, { email: created.email, name: 'A editor', role: 'editor' });
    });
  });

  describe('POST /api/users', () => {
    it('creates a user (201) that can log in, and lists it as created', async () => {
      const email = uniqueEmail('new');
      const response = await t.request('POST', '/api/users', {
        token: admin,
        body: { email, name: 'New Person', password: PASSWORD, role: 'editor' },
      });
      expect(response.status).toBe(201);
      expectUser(response.body, { email, name: 'New Person', role: 'editor' });
      expect((await listUsers()).find((user) => user.id === response.body.id)).toEqual(
        response.body,
      );

      const login = await t.request('POST', '/api/auth/login', {
        body: { email, password: PASSWORD },
      });
      expect(login.status).toBe(200);
      expect(login.body.user).toEqual(response.body);
    });

    it('stores the e-mail lower-cased and compares e-mails case-insensitively (409)', async () => {
      const created = await t.request('POST', '/api/users', {
        token: admin,
        body: { email: 'Foo@Example.com', name: 'Foo', password: PASSWORD },
      });
      expect(created.status).toBe(201);
      expectUser(created.body, { email: 'foo@example.com', name: 'Foo', role: 'viewer' });

      for (const email of ['foo@example.com', 'FOO@EXAMPLE.COM']) {
        const duplicate = await t.request('POST', '/api/users', {
          token: admin,
          body: { email, name: 'Other Foo', password: PASSWORD, role: 'admin' },
        });
        expect(duplicate.status).toBe(409);
        expectErrorBody(duplicate, /e-?mail/i);
      }
      const foos = (await listUsers()).filter((user) => user.email === 'foo@example.com');
      expect(foos).toEqual([created.body]);

      // Login compares case-insensitively too.
      expect(await t.login('FOO@example.COM', PASSWORD)).toEqual(expect.any(String));
    });

    it('accepts an e-mail without a dotted domain', async () => {
      const response = await t.request('POST', '/api/users', {
        token: admin,
        body: { email: 'ops@intranet', name: 'Ops', password: PASSWORD, role: 'viewer' },
      });
      expect(response.status).toBe(201);
      expectUser(response.body, { email: 'ops@intranet', name: 'Ops', role: 'viewer' });
    });

    it('defaults the role to viewer', async () => {
      const email = uniqueEmail('default-role');
      const response = await t.request('POST', '/api/users', {
        token: admin,
        body: { email, name: 'No Role', password: PASSWORD },
      });
      expect(response.status).toBe(201);
      expectUser(response.body, { email, name: 'No Role', role: 'viewer' });
      const token = await t.login(email, PASSWORD);
      expect((await t.request('GET', '/api/users', { token })).status).toBe(403);
    });

    it('accepts the boundary values: a 255-character name and a 12-character password', async () => {
      const email = uniqueEmail('bounds');
      const name = 'n'.repeat(255);
      const response = await t.request('POST', '/api/users', {
        token: admin,
        body: { email, name, password: 'p'.repeat(12), role: 'viewer' },
      });
      expect(response.status).toBe(201);
      expectUser(response.body, { email, name, role: 'viewer' });
      expect(await t.login(email, 'p'.repeat(12))).toEqual(expect.any(String));
    });

    describe('validation: 400 naming the field, and nothing is created', () => {
      const valid = () => ({
        email: uniqueEmail('invalid'),
        name: 'Valid Name',
        password: PASSWORD,
        role: 'viewer',
      });

      const cases: [string, string, (body: Record<string, unknown>) => void][] = [
        ['a malformed e-mail', 'email', (b) => (b.email = 'not-an-email')],
        ['an e-mail without a local part', 'email', (b) => (b.email = '@example.com')],
        ['a missing e-mail', 'email', (b) => delete b.email],
        ['a missing name', 'name', (b) => delete b.name],
        ['an empty name', 'name', (b) => (b.name = '')],
        ['a name of 256 characters', 'name', (b) => (b.name = 'n'.repeat(256))],
        ['a name that is not a string', 'name', (b) => (b.name = 42)],
        ['a password of 11 characters', 'password', (b) => (b.password = 'p'.repeat(11))],
        ['a missing password', 'password', (b) => delete b.password],
        ['an unknown role', 'role', (b) => (b.role = 'superuser')],
        ['a null role', 'role', (b) => (b.role = null)],
        ['an unknown property', 'isAdmin', (b) => (b.isAdmin = true)],
        // Sent as the JSON escape \ud800: a UTF-16 half that no UTF-8 spells.
        ['an e-mail that is a lone surrogate', 'email', (b) => (b.email = '\ud800')],
        ['an e-mail holding a lone surrogate', 'email', (b) => (b.email = 'a\udc00b@example.com')],
        ['a name holding a lone surrogate', 'name', (b) => (b.name = 'Ann \ud83d')],
      ];

      it.each(cases)('%s', async (_label, field, change) => {
        const before = await listUsers();
        const body: Record<string, unknown> = valid();
        change(body);
        const response = await t.request('POST', '/api/users', { token: admin, body });
        expectFieldError(response, field);
        const after = await listUsers();
        expect(after).toEqual(before);
        if (typeof body.email === 'string') {
          expect(after.map((user) => user.email)).not.toContain(body.email.toLowerCase());
        }
      });
    });
  });

  describe('PUT /api/users/:id', () => {
    it('changes the name and the role (200 User), and the change is stored', async () => {
      const user = await t.createUser('viewer');
      const before = (await listUsers()).find((u) => u.id === user.id);
      const response = await t.request('PUT', `/api/users/${user.id}`, {
        token: admin,
        body: { name: 'Renamed', role: 'editor' },
      });
      expect(response.status).toBe(200);
      expectUser(response.body, { email: user.email, name: 'Renamed', role: 'editor' });
      expect(response.body.id).toBe(user.id);
      expect(response.body.createdAt).toBe(before.createdAt);
      expect(Date.parse(response.body.updatedAt)).toBeGreaterThanOrEqual(
        Date.parse(before.updatedAt),
      );
      expect((await listUsers()).find((u) => u.id === user.id)).toEqual(response.body);

      const nameOnly = await t.request('PUT', `/api/users/${user.id}`, {
        token: admin,
        body: { name: 'Renamed Again' },
      });
      expect(nameOnly.status).toBe(200);
      expectUser(nameOnly.body, { email: user.email, name: 'Renamed Again', role: 'editor' });
    });

    it('sets a password: the old session stops working, the new password logs in, the old one does not', async () => {
      const user = await t.createUser('editor');
      expect((await t.request('GET', '/api/auth/me', { token: user.token })).status).toBe(200);

      const newPassword = 'a-brand-new-password';
      const response = await t.request('PUT', `/api/users/${user.id}`, {
        token: admin,
        body: { password: newPassword },
      });
      expect(response.status).toBe(200);
      expectUser(response.body, { email: user.email, name: 'A editor', role: 'editor' });

      const stale = await t.request('GET', '/api/auth/me', { token: user.token });
      expect(stale.status).toBe(401);
      expectErrorBody(stale);

      const oldLogin = await t.request('POST', '/api/auth/login', {
        body: { email: user.email, password: user.password },
      });
      expect(oldLogin.status).toBe(401);
      expectErrorBody(oldLogin);

      const token = await t.login(user.email, newPassword);
      const me = await t.request('GET', '/api/auth/me', { token });
      expect(me.status).toBe(200);
      expect(me.body.id).toBe(user.id);
    });

    it('answers 404 for an unknown id', async () => {
      const response = await t.request('PUT', `/api/users/${randomUUID()}`, {
        token: admin,
        body: { name: 'Ghost' },
      });
      expect(response.status).toBe(404);
      expectErrorBody(response);
    });

    describe('validation: 400 naming the field, and nothing is changed', () => {
      const cases: [string, string, Record<string, unknown>][] = [
        ['an empty name', 'name', { name: '' }],
        ['a name of 256 characters', 'name', { name: 'n'.repeat(256) }],
        ['an unknown role', 'role', { role: 'root', name: 'Should Not Apply' }],
        ['a password of 11 characters', 'password', { password: 'p'.repeat(11) }],
        ['a null name', 'name', { name: null }],
        ['a null role', 'role', { role: null }],
        ['a null password', 'password', { password: null }],
        ['an e-mail (not updatable)', 'email', { email: 'changed@example.com' }],
        ['an unknown property', 'isAdmin', { isAdmin: true }],
      ];

      it.each(cases)('%s', async (_label, field, body) => {
        const user = await t.createUser('viewer');
        const before = (await listUsers()).find((u) => u.id === user.id);
        const response = await t.request('PUT', `/api/users/${user.id}`, { token: admin, body });
        expectFieldError(response, field);
        expect((await listUsers()).find((u) => u.id === user.id)).toEqual(before);
        // A rejected password change does not end the user's session.
        expect((await t.request('GET', '/api/auth/me', { token: user.token })).status).toBe(200);
      });
    });
  });

  describe('DELETE /api/users/:id', () => {
    it('deletes (204); the user’s session token and API key get 401 at once', async () => {
      const user = await t.createUser('editor');
      const created = await t.request('POST', '/api/auth/api-keys', {
        token: user.token,
        body: { name: 'ci' },
      });
      expect(created.status).toBe(201);
      const key: string = created.body.key;
      expect((await t.request('GET', '/api/auth/me', { token: user.token })).status).toBe(200);
      expect((await t.request('GET', '/api/auth/me', { token: key })).status).toBe(200);

      const response = await t.request('DELETE', `/api/users/${user.id}`, { token: admin });
      expect(response.status).toBe(204);
      expect(response.body).toBeUndefined();

      for (const token of [user.token, key]) {
        const me = await t.request('GET', '/api/auth/me', { token });
        expect(me.status).toBe(401);
        expectErrorBody(me);
        expect((await t.request('GET', '/api/auth/api-keys', { token })).status).toBe(401);
      }
      const login = await t.request('POST', '/api/auth/login', {
        body: { email: user.email, password: user.password },
      });
      expect(login.status).toBe(401);
      expect((await listUsers()).map((u) => u.id)).not.toContain(user.id);

      const again = await t.request('DELETE', `/api/users/${user.id}`, { token: admin });
      expect(again.status).toBe(404);
      expectErrorBody(again);
      const put = await t.request('PUT', `/api/users/${user.id}`, {
        token: admin,
        body: { name: 'Back' },
      });
      expect(put.status).toBe(404);
    });

    it('answers 404 for an unknown id', async () => {
      const before = await listUsers();
      const response = await t.request('DELETE', `/api/users/${randomUUID()}`, { token: admin });
      expect(response.status).toBe(404);
      expectErrorBody(response);
      expect(await listUsers()).toEqual(before);
    });

    it('frees the e-mail for a new user', async () => {
      const user = await t.createUser('viewer');
      expect((await t.request('DELETE', `/api/users/${user.id}`, { token: admin })).status).toBe(
        204,
      );
      const again = await t.request('POST', '/api/users', {
        token: admin,
        body: { email: user.email, name: 'Again', password: PASSWORD },
      });
      expect(again.status).toBe(201);
      expect(again.body.id).not.toBe(user.id);
      // The old session token does not come back to life with the new account.
      expect((await t.request('GET', '/api/auth/me', { token: user.token })).status).toBe(401);
    });
  });

  describe('role boundaries', () => {
    it.each(['viewer', 'editor'])('role %s gets 403 on every /api/users route', async (role) => {
      const caller = await t.createUser(role);
      const target = await t.createUser('viewer');
      const before = await listUsers();
      const email = uniqueEmail('forbidden');

      const attempts: [string, string, unknown][] = [
        ['GET', '/api/users', undefined],
        ['POST', '/api/users', { email, name: 'X', password: PASSWORD, role: 'admin' }],
        ['PUT', `/api/users/${target.id}`, { name: 'Hijacked', role: 'admin' }],
        ['PUT', `/api/users/${caller.id}`, { role: 'admin' }],
        ['DELETE', `/api/users/${target.id}`, undefined],
      ];
      for (const [method, path, body] of attempts) {
        const response = await t.request(method, path, { token: caller.token, body });
        expect({ method, path, status: response.status }).toEqual({ method, path, status: 403 });
        expectErrorBody(response);
      }
      expect(await listUsers()).toEqual(before);
    });

    it('without a token, every /api/users route is 401', async () => {
      const target = await t.createUser('viewer');
      const before = await listUsers();
      const attempts: [string, string, unknown][] = [
        ['GET', '/api/users', undefined],
        ['POST', '/api/users', { email: uniqueEmail('anon'), name: 'X', password: PASSWORD }],
        ['PUT', `/api/users/${target.id}`, { name: 'Anon' }],
        ['DELETE', `/api/users/${target.id}`, undefined],
      ];
      for (const [method, path, body] of attempts) {
        const response = await t.request(method, path, { body });
        expect({ method, path, status: response.status }).toEqual({ method, path, status: 401 });
        expectErrorBody(response);
      }
      expect(await listUsers()).toEqual(before);
    });

    it('a garbage bearer token is 401, not 403', async () => {
      const response = await t.request('GET', '/api/users', { token: 'not-a-token' });
      expect(response.status).toBe(401);
      expectErrorBody(response);
    });

    it('a role change applies on the very next request with the same token', async () => {
      const user = await t.createUser('viewer');
      expect((await t.request('GET', '/api/users', { token: user.token })).status).toBe(403);

      const promote = await t.request('PUT', `/api/users/${user.id}`, {
        token: admin,
        body: { role: 'admin' },
      });
      expect(promote.status).toBe(200);
      const asAdmin = await t.request('GET', '/api/users', { token: user.token });
      expect(asAdmin.status).toBe(200);
      expect(asAdmin.body.map((u: any) => u.id)).toContain(user.id);
      expect((await t.request('GET', '/api/auth/me', { token: user.token })).body.role).toBe(
        'admin',
      );

      const demote = await t.request('PUT', `/api/users/${user.id}`, {
        token: admin,
        body: { role: 'editor' },
      });
      expect(demote.status).toBe(200);
      const asEditor = await t.request('GET', '/api/users', { token: user.token });
      expect(asEditor.status).toBe(403);
      expectErrorBody(asEditor);
      expect(await adminCount()).toBe(1);
    });
  });

  // Last: when it fails, it leaves the service without an admin.
  describe('the last admin, under concurrent requests', () => {
    it('two admins deleting each other at the same moment leave one admin', async () => {
      for (let attempt = 0; attempt < 20; attempt++) {
        const a = await t.createUser('admin');
        const b = await t.createUser('admin');
        // Make a and b the only two admins.
        const demoteBootstrap = await t.request('PUT', `/api/users/${adminId}`, {
          token: a.token,
          body: { role: 'viewer' },
        });
        expect(demoteBootstrap.status).toBe(200);

        const [deleteA, deleteB] = await Promise.all([
          t.request('DELETE', `/api/users/${a.id}`, { token: b.token }),
          t.request('DELETE', `/api/users/${b.id}`, { token: a.token }),
        ]);
        // One delete wins; the other is refused as the last admin (409), or its caller is
        // already gone (401). Never both.
        const statuses = [deleteA.status, deleteB.status].sort();
        expect([
          [204, 401],
          [204, 409],
        ]).toContainEqual(statuses);

        const survivor = deleteA.status === 204 ? b : a;
        const restore = await t.request('PUT', `/api/users/${adminId}`, {
          token: survivor.token,
          body: { role: 'admin' },
        });
        expect(restore.status).toBe(200);
        const cleanup = await t.request('DELETE', `/api/users/${survivor.id}`, { token: admin });
        expect(cleanup.status).toBe(204);
        expect(await adminCount()).toBe(1);
      }
    });
  });
});
