import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { User } from '../../src/database/entities/user.entity.js';
import {
  browse,
  CLIENT_ID,
  startWithOidcProvider,
  TestOidcProvider,
  type Account,
} from '../support/oidc-provider.js';
import { expectErrorBody, httpRequest, TestApp } from '../support/test-app.js';

describe('single sign-on (OpenID Connect) against a provider started by the test', () => {
  let provider: TestOidcProvider;
  let t: TestApp;

  beforeAll(async () => {
    ({ provider, t } = await startWithOidcProvider());
  });
  afterAll(async () => {
    await t?.close();
    await provider?.close();
  });

  /** A whole sign-in as `account`, as a browser runs it: where it lands, and its session. */
  async function signIn(account: Account) {
    provider.next = account;
    const { url, locations, jar } = await browse(`${t.baseUrl}/api/auth/oidc/login`, t.baseUrl);
    const cookies = jar.get(t.baseUrl) ?? new Map<string, string>();
    const session = await httpRequest(t.baseUrl, 'POST', '/api/auth/oidc/session', {
      headers: { cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; ') },
    });
    return { url, locations, session };
  }

  it('GET /api/auth/config tells the sign-in page to offer the button', async () => {
    const response = await t.request('GET', '/api/auth/config');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ password: true, oidc: { enabled: true, name: 'Test IdP' } });
  });

  it('redirects to the provider with the code flow, PKCE (S256), state and nonce', async () => {
    const response = await fetch(`${t.baseUrl}/api/auth/oidc/login`, { redirect: 'manual' });
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('location')!);
    expect(location.origin).toBe(provider.issuer);
    const params = location.searchParams;
    expect(params.get('response_type')).toBe('code');
    expect(params.get('client_id')).toBe(CLIENT_ID);
    expect(params.get('redirect_uri')).toBe(`${t.baseUrl}/api/auth/oidc/callback`);
    expect(params.get('scope')).toBe('openid email profile groups');
    expect(params.get('code_challenge_method')).toBe('S256');
    expect(params.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(params.get('state')).toMatch(/^[\w-]{20,}$/);
    expect(params.get('nonce')).toMatch(/^[\w-]{20,}$/);
    const cookie = response.headers.getSetCookie().join('\n');
    expect(cookie).toMatch(/assetmap_oidc=.*HttpOnly/i);
    expect(cookie).toMatch(/Secure/);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\/api\/auth\/oidc/);
  });

  it('signs a new person in: created by its sub, its role from its groups, a session for the UI', async () => {
    const { url, locations, session } = await signIn({
      sub: 'alice-sub',
      email: 'Alice@Example.com',
      name: 'Alice',
      groups: ['staff', 'netops'],
    });
    expect(url.pathname).toBe('/login');
    expect(url.searchParams.get('sso')).toBe('1');
    expect(session.status).toBe(200);
    expect(session.body.user).toMatchObject({
      email: 'alice@example.com',
      name: 'Alice',
      role: 'editor',
      kind: 'person',
    });
    const me = await t.request('GET', '/api/auth/me', { token: session.body.token });
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(session.body.user.id);
    // The session token is in no URL of the way, and in no log line.
    const token: string = session.body.token;
    for (const location of locations) expect(location).not.toContain(token);
    expect(t.logLines.join('\n')).not.toContain(token);
    expect(locations.join('\n')).not.toMatch(/eyJ/);
  });

  it('finds the same user by its sub at the next sign-in, and sets its role again', async () => {
    const first = await signIn({
      sub: 'bob-sub',
      email: 'bob@example.com',
      name: 'Bob',
      groups: ['security'],
    });
    expect(first.session.body.user.role).toBe('admin');
    const second = await signIn({
      sub: 'bob-sub',
      email: 'bob@example.com',
      name: 'Robert',
      groups: 'staff',
    });
    expect(second.session.body.user).toMatchObject({
      id: first.session.body.user.id,
      role: 'viewer',
      name: 'Robert',
    });
    const users = await t.dataSource.getRepository(User).findBy({ oidcSubject: 'bob-sub' });
    expect(users).toHaveLength(1);
    // The first session follows the user's current role.
    const listed = await t.request('GET', '/api/users', { token: first.session.body.token });
    expect(listed.status).toBe(403);
  });

  it('refuses a person none of whose groups has a role, with a sentence on the sign-in page', async () => {
    const { url, session } = await signIn({
      sub: 'carol-sub',
      email: 'carol@example.com',
      groups: ['sales'],
    });
    expect(url.pathname).toBe('/login');
    expect(url.searchParams.get('sso_error')).toMatch(/None of your groups \(the claim 'groups'\)/);
    expect(session.status).toBe(401);
    expectErrorBody(session);
    expect(await t.dataSource.getRepository(User).findBy({ oidcSubject: 'carol-sub' })).toEqual([]);
  });

  it("refuses an answer whose state is not the sign-in's, before redeeming its code", async () => {
    // A sign-in started in this browser, and an answer with another state (a code of
    // another sign-in, sent to this browser by an attacker).
    const mine = await fetch(`${t.baseUrl}/api/auth/oidc/login`, { redirect: 'manual' });
    const myCookie = mine.headers.getSetCookie()[0].split(';')[0];
    const forged = await fetch(
      `${t.baseUrl}/api/auth/oidc/callback?code=stolen-code&state=not-the-state`,
      { redirect: 'manual', headers: { cookie: myCookie } },
    );
    expect(forged.status).toBe(302);
    const location = new URL(forged.headers.get('location')!, t.baseUrl);
    expect(location.pathname).toBe('/login');
    expect(location.searchParams.get('sso_error')).toMatch(
      /does not belong to this sign-in \(state\)/,
    );
    expect(forged.headers.getSetCookie().join('\n')).not.toMatch(/assetmap_sso=[^;]/);
  });

  it('refuses a callback with no sign-in started in this browser', async () => {
    const response = await fetch(`${t.baseUrl}/api/auth/oidc/callback?code=x&state=y`, {
      redirect: 'manual',
    });
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('location')!, t.baseUrl);
    expect(location.searchParams.get('sso_error')).toMatch(/not started in this browser/);
  });

  it("passes on the provider's refusal", async () => {
    const started = await fetch(`${t.baseUrl}/api/auth/oidc/login`, { redirect: 'manual' });
    const cookie = started.headers.getSetCookie()[0].split(';')[0];
    const state = new URL(started.headers.get('location')!).searchParams.get('state')!;
    const response = await fetch(
      `${t.baseUrl}/api/auth/oidc/callback?error=access_denied&error_description=${encodeURIComponent('The user said no')}&state=${state}`,
      { redirect: 'manual', headers: { cookie } },
    );
    const location = new URL(response.headers.get('location')!, t.baseUrl);
    expect(location.searchParams.get('sso_error')).toBe(
      'The identity provider refused the sign-in: The user said no',
    );
  });

  it('gives no session without a valid handoff cookie (401)', async () => {
    for (const cookie of [
      undefined,
      'assetmap_sso=forged',
      'assetmap_sso=eyJhbGciOiJIUzI1NiJ9.e30.x',
    ]) {
      const response = await httpRequest(t.baseUrl, 'POST', '/api/auth/oidc/session', {
        headers: cookie ? { cookie } : {},
      });
      expect(response.status).toBe(401);
      expectErrorBody(response);
    }
  });

  it('leaves a person signed in by the provider without a password: password sign-in is a 401', async () => {
    await signIn({ sub: 'erin-sub', email: 'erin@example.com', groups: ['netops'] });
    const response = await t.request('POST', '/api/auth/login', {
      body: { email: 'erin@example.com', password: 'any-password-at-all' },
    });
    expect(response.status).toBe(401);
    expectErrorBody(response, /Invalid e-mail or password/);
  });

  it('keeps password sign-in for the local administrator', async () => {
    expect(typeof (await t.login())).toBe('string');
  });
});

describe('single sign-on when not set up', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(async () => {
    await t.close();
  });

  it('GET /api/auth/config says so, and the login route is a 404', async () => {
    const config = await t.request('GET', '/api/auth/config');
    expect(config.body).toEqual({ password: true, oidc: { enabled: false, name: null } });
    const login = await t.request('GET', '/api/auth/oidc/login');
    expect(login.status).toBe(404);
    expectErrorBody(login);
  });
});
