import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { scannerPayload } from '../support/payloads.js';
import { describeIfAvailable, REDIS_SERVER_URL } from '../support/requirements.js';
import { ServiceProcess } from '../support/service-process.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../support/test-app.js';
import {
  createTestDatabase,
  POSTGRES_SERVER_URL,
  type TestDatabase,
} from '../support/test-database.js';

// Skipped, with a warning, where PostgreSQL or Redis is missing; in CI that fails instead.
const describeWithServers = await describeIfAvailable({
  postgres: POSTGRES_SERVER_URL,
  redis: REDIS_SERVER_URL,
});

const RATE_LIMIT = 8;
const LOGIN_RATE_LIMIT = 4;

/**
 * A made-up client address per call, so that tests and runs sharing this Redis (whose counters
 * outlive a run) never share a budget: 64 random bits in IPv6's documentation range, since the
 * 250 addresses of an IPv4 one collided often enough to fail CI. The forged leftmost entry is
 * ignored with one trusted hop.
 */
const clientAddress = () =>
  `203.0.113.7, 2001:db8:${(randomBytes(8).toString('hex').match(/.{4}/g) ?? []).join(':')}::1`;

/**
 * Two replicas as Kubernetes runs them: two processes of the built service on one PostgreSQL
 * database and one Redis, with the same JWT_SECRET. Runs on PostgreSQL in both test runs, since
 * several replicas need it.
 */
describeWithServers('two replicas sharing PostgreSQL and Redis', () => {
  let database: TestDatabase;
  let a: ServiceProcess;
  let b: ServiceProcess;

  const login = async (service: ServiceProcess, email = ADMIN_EMAIL, password = ADMIN_PASSWORD) => {
    const response = await service.request('POST', '/api/auth/login', {
      body: { email, password },
      headers: { 'x-forwarded-for': clientAddress() },
    });
    expect(response.status).toBe(200);
    return response.body.token as string;
  };

  beforeAll(async () => {
    database = await createTestDatabase({ postgres: POSTGRES_SERVER_URL });
    const env = {
      NODE_ENV: 'production',
      DATABASE_URL: database.url,
      JWT_SECRET: randomBytes(32).toString('hex'),
      ADMIN_PASSWORD,
      REDIS_URL: REDIS_SERVER_URL,
      RATE_LIMIT: String(RATE_LIMIT),
      LOGIN_RATE_LIMIT: String(LOGIN_RATE_LIMIT),
      TRUST_PROXY: 'true',
    };
    // Started together on an empty database: both migrate and bootstrap at the same moment.
    [a, b] = await Promise.all([ServiceProcess.start(env), ServiceProcess.start(env)]);
  }, 120_000);
  afterAll(async () => {
    await ServiceProcess.killAll();
    await database?.drop();
  });

  it('migrate one empty database together and create one administrator', async () => {
    const token = await login(a);
    const users = await b.request('GET', '/api/users', { token });
    expect(users.status).toBe(200);
    expect(users.body.map((user: { email: string }) => user.email)).toEqual([ADMIN_EMAIL]);
  });

  it('accept the session tokens and API keys the other issued', async () => {
    const tokenFromA = await login(a);
    const me = await b.request('GET', '/api/auth/me', { token: tokenFromA });
    expect(me.status).toBe(200);
    expect(me.body.email).toBe(ADMIN_EMAIL);

    const created = await b.request('POST', '/api/auth/api-keys', {
      token: await login(b),
      body: { name: 'ci scanner' },
    });
    expect(created.status).toBe(201);
    const onA = await a.request('GET', '/api/assets', { token: created.body.key });
    expect(onA.status).toBe(200);
  });

  it('enforce one rate limit between them', async () => {
    const admin = await login(a);
    const email = `limited-${randomBytes(4).toString('hex')}@example.com`;
    const password = 'limited-password-123';
    const created = await a.request('POST', '/api/users', {
      token: admin,
      body: { email, name: 'Limited', password, role: 'viewer' },
    });
    expect(created.status).toBe(201);
    const token = await login(b, email, password);

    const statuses: number[] = [];
    for (let i = 0; i < RATE_LIMIT; i++) {
      statuses.push((await (i % 2 ? b : a).request('GET', '/api/assets', { token })).status);
    }
    expect(statuses).toEqual(Array(RATE_LIMIT).fill(200));
    for (const service of [a, b]) {
      const refused = await service.request('GET', '/api/assets', { token });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  it('count login attempts per client address across both', async () => {
    const address = clientAddress();
    const attempt = (service: ServiceProcess) =>
      service.request('POST', '/api/auth/login', {
        body: { email: ADMIN_EMAIL, password: 'wrong-password-1' },
        headers: { 'x-forwarded-for': address },
      });
    for (let i = 0; i < LOGIN_RATE_LIMIT; i++) {
      expect((await attempt(i % 2 ? b : a)).status).toBe(401);
    }
    expect((await attempt(a)).status).toBe(429);
    expect((await attempt(b)).status).toBe(429);
  });

  it('serialize ingestions: of two runs of one payload, the one that goes second finds it all there', async () => {
    const token = await login(a);
    const payload = scannerPayload(5_000, `replicas-${randomBytes(3).toString('hex')}`, 9);
    const [first, second] = await Promise.all([
      a.request('POST', '/api/integrations/ingest', { token, body: payload }),
      b.request('POST', '/api/integrations/ingest', { token, body: payload }),
    ]);
    expect([first.status, second.status]).toEqual([200, 200]);
    const created = [first.body.stats.assetsCreated, second.body.stats.assetsCreated].sort();
    // Side by side, both would have looked up the ids before either wrote, and both created.
    expect(created).toEqual([0, 5_000]);
    const listed = await a.request('GET', `/api/assets?search=${payload.options.source}&limit=1`, {
      token,
    });
    expect(listed.body.total).toBe(5_000);
  });
});
