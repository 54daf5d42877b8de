import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ADMIN_PASSWORD, TestApp } from '../support/test-app.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('structured logs and request ids', () => {
  let t: TestApp;

  beforeAll(async () => {
    // Nest's own messages go to the JSON log too, as in production.
    t = await TestApp.start({}, undefined, { jsonLogs: true });
  });
  afterAll(() => t.close());

  it('writes only JSON lines, each with a level and a time', async () => {
    await t.request('GET', '/api/health');
    expect(t.logLines.length).toBeGreaterThan(0);
    for (const entry of t.logEntries()) {
      expect(['trace', 'debug', 'info', 'warn', 'error', 'fatal']).toContain(entry.level);
      expect(new Date(entry.time as string).toISOString()).toBe(entry.time);
    }
    expect(t.logEntries().some((entry) => entry.context === 'NestApplication')).toBe(true);
  });

  it('logs one line per request: method, route, path, status, duration, address and request id', async () => {
    const token = await t.login();
    const before = t.logEntries('request').length;
    const found = await t.request('GET', '/api/assets/no-such-asset', { token });
    expect(found.status).toBe(404);
    const lines = t.logEntries('request').slice(before);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 'info',
      method: 'GET',
      route: '/api/assets/:id',
      path: '/api/assets/no-such-asset',
      status: 404,
      ip: '127.0.0.1',
      requestId: found.headers.get('x-request-id'),
    });
    expect(typeof lines[0].durationMs).toBe('number');
    expect(lines[0].requestId).toMatch(UUID);
  });

  it('returns a new request id per request in X-Request-Id, or the caller’s own when sane', async () => {
    const first = await t.request('GET', '/api/health');
    const second = await t.request('GET', '/api/health');
    expect(first.headers.get('x-request-id')).toMatch(UUID);
    expect(second.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));

    const given = await t.request('GET', '/api/health', {
      headers: { 'x-request-id': 'ingress-7f3a9c01' },
    });
    expect(given.headers.get('x-request-id')).toBe('ingress-7f3a9c01');
    expect(t.logEntries('request').at(-1)!.requestId).toBe('ingress-7f3a9c01');

    for (const bad of ['x', 'a b c d e f g h', 'id"injected', 'z'.repeat(200)]) {
      const replaced = await t.request('GET', '/api/health', { headers: { 'x-request-id': bad } });
      expect(replaced.headers.get('x-request-id')).toMatch(UUID);
    }
  });

  it('never logs a password, session token or API key', async () => {
    const admin = await t.login();
    const failed = await t.request('POST', '/api/auth/login', {
      body: { email: 'admin@localhost', password: 'a-wrong-password-guess' },
    });
    expect(failed.status).toBe(401);
    const user = await t.createUser('editor');
    const key = await t.request('POST', '/api/auth/api-keys', {
      token: admin,
      body: { name: 'scanner' },
    });
    expect(key.status).toBe(201);
    await t.request('GET', '/api/assets', { token: key.body.key });
    await t.request('GET', '/api/assets', { token: `${key.body.key}tampered` });
    const changed = await t.request('POST', '/api/auth/password', {
      token: user.token,
      body: { currentPassword: user.password, newPassword: 'a-brand-new-password' },
    });
    expect(changed.status).toBe(204);
    // A request that fails validation echoes nothing of its body into the log either.
    await t.request('POST', '/api/users', {
      token: admin,
      body: { email: 'bad', name: 'x', password: 'leaky-password-123', role: 'nope' },
    });

    const everything = t.logLines.join('\n');
    for (const secret of [
      ADMIN_PASSWORD,
      'a-wrong-password-guess',
      user.password,
      'a-brand-new-password',
      'leaky-password-123',
      admin,
      user.token,
      key.body.key as string,
      (key.body.key as string).slice(4, 24),
      t.config.jwt.secret,
    ]) {
      expect(everything).not.toContain(secret);
    }
    expect(everything).not.toMatch(/authorization/i);
  });
});
