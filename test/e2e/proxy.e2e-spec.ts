import { afterEach, describe, expect, it } from '@jest/globals';
import { TestApp } from '../support/test-app.js';

/** A wrong-password login from the given X-Forwarded-For: 401 while under the limit, then 429. */
const attempt = (t: TestApp, forwardedFor: string) =>
  t.request('POST', '/api/auth/login', {
    body: { email: 'admin@localhost', password: 'not-the-password' },
    headers: { 'x-forwarded-for': forwardedFor },
  });

describe('client addresses behind a proxy (TRUST_PROXY)', () => {
  let t: TestApp;
  afterEach(() => t.close());

  it('ignores X-Forwarded-For by default: a forged header buys no new login budget', async () => {
    t = await TestApp.start({ LOGIN_RATE_LIMIT: '2' });
    expect((await attempt(t, '198.51.100.1')).status).toBe(401);
    expect((await attempt(t, '198.51.100.2')).status).toBe(401);
    const third = await attempt(t, '198.51.100.3');
    expect(third.status).toBe(429);
    expect(t.logEntries('request').map((line) => line.ip)).toEqual([
      '127.0.0.1',
      '127.0.0.1',
      '127.0.0.1',
    ]);
  });

  it('with TRUST_PROXY=true, counts each client the proxy names separately', async () => {
    t = await TestApp.start({ LOGIN_RATE_LIMIT: '2', TRUST_PROXY: 'true' });
    expect((await attempt(t, '198.51.100.1')).status).toBe(401);
    expect((await attempt(t, '198.51.100.1')).status).toBe(401);
    expect((await attempt(t, '198.51.100.1')).status).toBe(429);
    // Another client behind the same proxy has a budget of its own.
    expect((await attempt(t, '198.51.100.2')).status).toBe(401);
    expect(t.logEntries('request').map((line) => line.ip)).toEqual([
      '198.51.100.1',
      '198.51.100.1',
      '198.51.100.1',
      '198.51.100.2',
    ]);
  });

  it('with TRUST_PROXY=true, takes the address the proxy appended, not one the client sent', async () => {
    t = await TestApp.start({ LOGIN_RATE_LIMIT: '2', TRUST_PROXY: 'true' });
    // The client sends its own X-Forwarded-For; the proxy appends the real address, 198.51.100.9.
    expect((await attempt(t, '203.0.113.1, 198.51.100.9')).status).toBe(401);
    expect((await attempt(t, '203.0.113.2, 198.51.100.9')).status).toBe(401);
    expect((await attempt(t, '203.0.113.3, 198.51.100.9')).status).toBe(429);
    expect(t.logEntries('request').at(-1)!.ip).toBe('198.51.100.9');
  });

  it('with TRUST_PROXY=2, takes the address two proxies in', async () => {
    t = await TestApp.start({ LOGIN_RATE_LIMIT: '1', TRUST_PROXY: '2' });
    expect((await attempt(t, '203.0.113.1, 198.51.100.7, 10.0.0.5')).status).toBe(401);
    expect((await attempt(t, '203.0.113.2, 198.51.100.7, 10.0.0.6')).status).toBe(429);
    expect(t.logEntries('request').map((line) => line.ip)).toEqual([
      '198.51.100.7',
      '198.51.100.7',
    ]);
  });

  it('with TRUST_PROXY naming the proxy, trusts the header only from that address', async () => {
    t = await TestApp.start({ LOGIN_RATE_LIMIT: '1', TRUST_PROXY: '10.1.2.3' });
    // The test connects from 127.0.0.1, which is not the proxy: the header is ignored.
    expect((await attempt(t, '198.51.100.1')).status).toBe(401);
    expect((await attempt(t, '198.51.100.2')).status).toBe(429);
    expect(t.logEntries('request').map((line) => line.ip)).toEqual(['127.0.0.1', '127.0.0.1']);
  });

  it('with TRUST_PROXY=true, reports HTTPS from X-Forwarded-Proto with HSTS', async () => {
    t = await TestApp.start({ TRUST_PROXY: 'true' });
    const overTls = await t.request('GET', '/api/health', {
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(overTls.headers.get('strict-transport-security')).toContain('max-age=');
    const plain = await t.request('GET', '/api/health');
    expect(plain.headers.get('strict-transport-security')).toBeNull();
  });
});
