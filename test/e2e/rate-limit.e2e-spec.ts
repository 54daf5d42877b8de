import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ADMIN_EMAIL, ADMIN_PASSWORD, expectErrorBody, TestApp } from '../support/test-app.js';

describe('rate limiting', () => {
  let t: TestApp;
  let adminToken: string;
  beforeAll(async () => {
    t = await TestApp.start({ LOGIN_RATE_LIMIT: '3', RATE_LIMIT: '5', RATE_LIMIT_WINDOW_S: '60' });
    adminToken = await t.login();
  });
  afterAll(async () => {
    await t.close();
  });

  it('limits login attempts per address, answering 429 with Retry-After', async () => {
    // One login was spent in beforeAll; two more fit, failed or not.
    for (let i = 0; i < 2; i++) {
      const attempt = await t.request('POST', '/api/auth/login', {
        body: { email: ADMIN_EMAIL, password: 'wrong-password' },
      });
      expect(attempt.status).toBe(401);
    }
    const limited = await t.request('POST', '/api/auth/login', {
      body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    });
    expect(limited.status).toBe(429);
    expectErrorBody(limited);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
  });

  it('limits authenticated requests per client, separately from login', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await t.request('GET', '/api/auth/me', { token: adminToken })).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const limited = await t.request('GET', '/api/users', { token: adminToken });
    expect(limited.status).toBe(429);
    expectErrorBody(limited);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('never limits the health routes', async () => {
    for (let i = 0; i < 20; i++) {
      expect((await t.request('GET', '/api/health')).status).toBe(200);
      expect((await t.request('GET', '/api/health/ready')).status).toBe(200);
    }
  });
});

describe('rate limiting with REDIS_URL when Redis cannot be reached', () => {
  let t: TestApp;

  beforeAll(async () => {
    // Nothing listens on this port: the service starts anyway and does not limit.
    t = await TestApp.start({ REDIS_URL: 'redis://127.0.0.1:6390', RATE_LIMIT: '2' });
  });
  afterAll(() => t.close());

  it('serves requests without a limit rather than refusing them, and says so in the log', async () => {
    const token = await t.login();
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      statuses.push((await t.request('GET', '/api/auth/me', { token })).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200]);
    expect(t.logger.text()).toMatch(/Redis unavailable, rate limits not enforced/);
  });
});
