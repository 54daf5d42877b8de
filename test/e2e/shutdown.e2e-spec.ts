import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connect } from 'node:net';
import { scannerPayload } from '../support/payloads.js';
import { parseRawResponse } from '../support/raw-http.js';
import { ServiceProcess } from '../support/service-process.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, TestApp } from '../support/test-app.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

const INGEST = '/api/integrations/ingest';

/**
 * A POST whose headers the server has taken (it answered 100 Continue) before the body is sent;
 * `answer` sends the body and resolves with the final answer.
 */
function startedUpload(
  baseUrl: string,
  path: string,
  token: string,
  body: string,
): Promise<{ answer: () => Promise<{ status: number; body: string }> }> {
  const { hostname, port } = new URL(baseUrl);
  const socket = connect(Number(port), hostname);
  let received = Buffer.alloc(0);
  const waiters: (() => void)[] = [];
  socket.on('data', (chunk: Buffer) => {
    received = Buffer.concat([received, chunk]);
    waiters.splice(0).forEach((wake) => wake());
  });
  const until = <T>(found: () => T | null): Promise<T> =>
    new Promise((resolve, reject) => {
      const look = () => {
        const value = found();
        if (value !== null) return resolve(value);
        if (socket.destroyed) return reject(new Error(`closed: ${received.toString()}`));
        waiters.push(look);
      };
      socket.once('close', look);
      look();
    });
  socket.write(
    `POST ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      'Expect: 100-continue\r\n\r\n',
  );
  const continued = '100 Continue\r\n\r\n';
  return until(() => (received.includes(continued) ? true : null)).then(() => ({
    answer: () => {
      socket.write(body);
      return until(() => {
        const rest = received.subarray(received.indexOf(continued) + continued.length);
        const answer = parseRawResponse(rest);
        return answer && { status: answer.status, body: answer.body };
      }).finally(() => socket.destroy());
    },
  }));
}

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
    // Sent with Expect: 100-continue: the 100 says the server holds the request, so it is in
    // flight when the signal comes.
    const upload = await startedUpload(
      service.baseUrl,
      INGEST,
      token,
      JSON.stringify(scannerPayload(40_000, 'draining', 7)),
    );
    service.signal('SIGTERM');
    const ingestion = upload.answer();

    // During the delay (the signal is handled once the event loop is free): not ready, but
    // still alive and serving.
    let ready = await service.request('GET', '/api/health/ready');
    while (ready.status === 200) ready = await service.request('GET', '/api/health/ready');
    expect(ready.status).toBe(503);
    expect(ready.body).toEqual({ error: 'Not ready: shutting down' });
    const live = await service.request('GET', '/api/health');
    expect(live.status).toBe(200);
    expect(live.headers.get('connection')).toBe('close');

    const result = await ingestion;
    expect(result.status).toBe(200);
    expect(JSON.parse(result.body).stats).toMatchObject({
      assetsCreated: 40_000,
      relationsCreated: 39_999,
    });

    // 0, not the 1 of the hard limit (28 s after the signal) or of a failed shutdown.
    const code = await service.exited;
    if (code !== 0)
      throw new Error(`exit code ${code}; the log ends:\n${service.lines.slice(-15).join('\n')}`);

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
