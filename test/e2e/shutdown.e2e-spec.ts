import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { scannerPayload } from '../support/payloads.js';
import { ServiceProcess } from '../support/service-process.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, TestApp } from '../support/test-app.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

const INGEST = '/api/integrations/ingest';

describe('graceful shutdown on SIGTERM (the built service, as a process)', () => {
  let database: TestDatabase;
  let service: ServiceProcess;

  beforeAll(async () => {
    database = await createTestDatabase({ file: true });
    service = await ServiceProcess.start({
      DATABASE_URL: database.url,
      ADMIN_PASSWORD,
      SHUTDOWN_DELAY_S: '2',
    });
  }, 120_000);
  afterAll(async () => {
    await ServiceProcess.killAll();
    await database?.drop();
  });

  it('fails readiness first, finishes the ingestion in flight, closes, and exits 0', async () => {
    const login = await service.request('POST', '/api/auth/login', {
      body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    });
    const token = login.body.token as string;
    expect((await service.request('GET', '/api/health/ready')).status).toBe(200);

    // Large enough to still be running when the server stops accepting, 2 s after SIGTERM.
    const ingestion = service.request('POST', INGEST, {
      token,
      body: scannerPayload(40_000, 'draining', 7),
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const signalledAt = Date.now();
    service.signal('SIGTERM');

    // During the delay (the signal is handled once the event loop is free): not ready, but
    // still alive and serving.
    let ready = await service.request('GET', '/api/health/ready');
    while (ready.status === 200 && Date.now() - signalledAt < 1_500) {
      ready = await service.request('GET', '/api/health/ready');
    }
    expect(ready.status).toBe(503);
    expect(ready.body).toEqual({ error: 'Not ready: shutting down' });
    const live = await service.request('GET', '/api/health');
    expect(live.status).toBe(200);
    expect(live.headers.get('connection')).toBe('close');

    const result = await ingestion;
    expect(result.status).toBe(200);
    expect(result.body.stats).toMatchObject({ assetsCreated: 40_000, relationsCreated: 39_999 });

    const code = await service.exited;
    if (code !== 0)
      throw new Error(`exit code ${code}; the log ends:\n${service.lines.slice(-15).join('\n')}`);
    expect(Date.now() - signalledAt).toBeLessThan(20_000);

    const messages = service.entries().map((entry) => entry.msg as string);
    const signalled = messages.findIndex((msg) => /^SIGTERM: no longer ready/.test(msg));
    const ingested = service
      .entries()
      .findIndex((entry) => entry.route === INGEST && entry.status === 200);
    const closed = messages.findIndex((msg) => /database closed: exiting/.test(msg));
    expect(signalled).toBeGreaterThanOrEqual(0);
    expect(ingested).toBeGreaterThan(signalled);
    expect(closed).toBeGreaterThan(ingested);

    // What the ingestion wrote was committed before the database closed.
    const reopened = await TestApp.start({}, database);
    try {
      const [{ n }] = await reopened.dataSource.query<{ n: string | number }[]>(
        "SELECT COUNT(*) AS n FROM assets WHERE source = 'draining'",
      );
      expect(Number(n)).toBe(40_000);
    } finally {
      await reopened.close();
    }
  }, 120_000);
});
