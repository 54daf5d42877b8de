import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { decodeJwtPayload, forgeJwt } from '../support/jwt.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, expectErrorBody, TestApp } from '../support/test-app.js';

const JWT_SECRET = 'a-test-secret-that-is-long-enough-for-hs256';
const USER_KEYS = ['createdAt', 'email', 'id', 'kind', 'name', 'role', 'updatedAt'];

describe('authentication', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await TestApp.start({ JWT_SECRET, JWT_EXPIRES_IN: '1h' });
  });
  afterAll(async () => {
    await t.close();
  });

  describe('POST /api/auth/login', () => {
    it('answers a session token and the user', async () => {
      const response = await t.request('POST', '/api/auth/login', {
        body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
      });
      expect(response.status).toBe(200);
      expect(Object.keys(response.body).sort()).toEqual(['token', 'user']);
      expect(Object.keys(response.body.user).sort()).toEqual(USER_KEYS);
      expect(response.body.user).toMatchObject({ email: ADMIN_EMAIL, role: 'admin' });
      const [header] = response.body.token.split('.');
      expect(JSON.parse(Buffer.from(header, 'base64url').toString())).toMatchObject({
        alg: 'HS256',
      });
      const payload = decodeJwtPayload(response.body.token);
      expect(payload.sub).toBe(response.body.user.id);
      expect((payload.exp as number) - (payload.iat as number)).toBe(3600);
    });

    it('compares the e-mail case-insensitively', async () => {
      const response = await t.request('POST', '/api/auth/login', {
        body: { email: 'ADMIN@LocalHost', password: ADMIN_PASSWORD },
      });
      expect(response.status).toBe(200);
    });

    it('gives the same 401 for an unknown e-mail and a wrong password', async () => {
      const unknown = await t.request('POST', '/api/auth/login', {
        body: { email: 'nobody@localhost', password: ADMIN_PASSWORD },
      });
      const wrong = await t.request('POST', '/api/auth/login', {
        body: { email: ADMIN_EMAIL, password: 'not-the-password' },
      });
      expect(unknown.status).toBe(401);
      expect(wrong.status).toBe(401);
      expectErrorBody(unknown);
      expect(wrong.body).toEqual(unknown.body);
    });

    it('takes about the same time for an unknown e-mail as for a wrong password', async () => {
      const time = async (email: string) => {
        const started = process.hrtime.bigint();
        await t.request('POST', '/api/auth/login', { body: { email, password: 'wrong-password' } });
        return Number(process.hrtime.bigint() - started) / 1e6;
      };
      // Warm both paths, then compare medians: both hash, so neither is an order faster.
      const unknown: number[] = [];
      const known: number[] = [];
      for (let i = 0; i < 4; i++) {
        unknown.push(await time('nobody@localhost'));
        known.push(await time(ADMIN_EMAIL));
      }
      const median = (values: number[]) => values.sort((a, b) => a - b)[values.length >> 1];
      expect(median(unknown)).toBeGreaterThan(median(known) / 3);
    });

    it('is 400 naming the field for a missing or malformed e-mail', async () => {
      const missing = await t.request('POST', '/api/auth/login', {
        body: { password: ADMIN_PASSWORD },
      });
      expect(missing.status).toBe(400);
      expectErrorBody(missing, /email/);
      const malformed = await t.request('POST', '/api/auth/login', {
        body: { email: 'not-an-email', password: ADMIN_PASSWORD },
      });
      expect(malformed.status).toBe(400);
      expectErrorBody(malformed, /email/);
    });

    it('is 400 naming the field for an e-mail holding a lone surrogate', async () => {
      for (const email of ['\\ud800', 'admin\\udfff@localhost']) {
        const response = await t.request('POST', '/api/auth/login', {
          rawBody: `{"email":"${email}","password":"${ADMIN_PASSWORD}"}`,
          headers: { 'content-type': 'application/json' },
        });
        expect(response.status).toBe(400);
        expectErrorBody(response, /^email must be an e-mail address/);
      }
    });

    it('is 400 naming the field for a missing password', async () => {
      const response = await t.request('POST', '/api/auth/login', { body: { email: ADMIN_EMAIL } });
      expect(response.status).toBe(400);
      expectErrorBody(response, /password/);
    });
  });

  describe('session tokens', () => {
    it('authenticate GET /api/auth/me', async () => {
      const token = await t.login();
      const response = await t.request('GET', '/api/auth/me', { token });
      expect(response.status).toBe(200);
      expect(Object.keys(response.body).sort()).toEqual(USER_KEYS);
      expect(response.body).toMatchObject({
        email: ADMIN_EMAIL,
        name: 'Administrator',
        role: 'admin',
      });
    });

    const refused: [string, () => Promise<Record<string, string>>][] = [
      ['a missing Authorization header', async () => ({})],
      ['a header that is not Bearer', async () => ({ authorization: `Basic ${await t.login()}` })],
      ['a malformed token', async () => ({ authorization: 'Bearer not.a.jwt' })],
      [
        'a token signed with another secret',
        async () => {
          const sub = decodeJwtPayload(await t.login()).sub;
          const now = Math.floor(Date.now() / 1000);
          return {
            authorization: `Bearer ${forgeJwt({ sub, ver: 0, iat: now, exp: now + 600 }, { secret: 'another-secret-another-secret-another' })}`,
          };
        },
      ],
      [
        'an alg:none token',
        async () => {
          const sub = decodeJwtPayload(await t.login()).sub;
          const now = Math.floor(Date.now() / 1000);
          return {
            authorization: `Bearer ${forgeJwt({ sub, ver: 0, iat: now, exp: now + 600 }, { alg: 'none' })}`,
          };
        },
      ],
      [
        'an expired token',
        async () => {
          const sub = decodeJwtPayload(await t.login()).sub;
          const now = Math.floor(Date.now() / 1000);
          return {
            authorization: `Bearer ${forgeJwt({ sub, ver: 0, iat: now - 7200, exp: now - 3600 }, { secret: JWT_SECRET })}`,
          };
        },
      ],
      [
        'a token naming no user',
        async () => {
          const now = Math.floor(Date.now() / 1000);
          return {
            authorization: `Bearer ${forgeJwt({ sub: 'no-such-user', ver: 0, iat: now, exp: now + 600 }, { secret: JWT_SECRET })}`,
          };
        },
      ],
    ];
    it.each(refused)('are refused with 401 for %s', async (_case, headers) => {
      const response = await t.request('GET', '/api/auth/me', { headers: await headers() });
      expect(response.status).toBe(401);
      expectErrorBody(response);
    });

    it('a correctly signed token of ours is accepted (the forged cases fail for their flaw)', async () => {
      const sub = decodeJwtPayload(await t.login()).sub;
      const now = Math.floor(Date.now() / 1000);
      const token = forgeJwt({ sub, ver: 0, iat: now, exp: now + 600 }, { secret: JWT_SECRET });
      expect((await t.request('GET', '/api/auth/me', { token })).status).toBe(200);
    });
  });

  describe('POST /api/auth/password', () => {
    it('changes the password and refuses session tokens issued before', async () => {
      const user = await t.createUser('viewer');
      const other = await t.login(user.email, user.password);
      const newPassword = 'a-brand-new-password';
      const changed = await t.request('POST', '/api/auth/password', {
        token: user.token,
        body: { currentPassword: user.password, newPassword },
      });
      expect(changed.status).toBe(204);
      expect(changed.body).toBeUndefined();

      for (const token of [user.token, other]) {
        const stale = await t.request('GET', '/api/auth/me', { token });
        expect(stale.status).toBe(401);
        expectErrorBody(stale);
      }
      const oldLogin = await t.request('POST', '/api/auth/login', {
        body: { email: user.email, password: user.password },
      });
      expect(oldLogin.status).toBe(401);
      const fresh = await t.login(user.email, newPassword);
      expect((await t.request('GET', '/api/auth/me', { token: fresh })).status).toBe(200);
    });

    it('is 400 naming currentPassword when it is wrong, and changes nothing', async () => {
      const user = await t.createUser('editor');
      const response = await t.request('POST', '/api/auth/password', {
        token: user.token,
        body: { currentPassword: 'wrong-password-here', newPassword: 'another-new-password' },
      });
      expect(response.status).toBe(400);
      expectErrorBody(response, /currentPassword/);
      expect((await t.request('GET', '/api/auth/me', { token: user.token })).status).toBe(200);
      await t.login(user.email, user.password);
    });

    it('is 400 naming newPassword when it is shorter than 12 characters', async () => {
      const user = await t.createUser('viewer');
      const response = await t.request('POST', '/api/auth/password', {
        token: user.token,
        body: { currentPassword: user.password, newPassword: 'short' },
      });
      expect(response.status).toBe(400);
      expectErrorBody(response, /newPassword/);
    });

    it('needs authentication', async () => {
      const response = await t.request('POST', '/api/auth/password', {
        body: { currentPassword: 'whatever-it-is', newPassword: 'another-new-password' },
      });
      expect(response.status).toBe(401);
    });
  });
});
