import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import { request as httpRequest } from 'node:http';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { scannerPayload } from '../support/payloads.js';
import { describeIfAvailable } from '../support/requirements.js';
import { ServiceProcess } from '../support/service-process.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../support/test-app.js';
import {
  createTestDatabase,
  POSTGRES_SERVER_URL,
  testingPostgres,
  type TestDatabase,
} from '../support/test-database.js';

const INGEST = '/api/integrations/ingest';
const RUNS = '/api/integrations/runs';
// src/runs/run-instance.service.ts: the advisory lock space of the processes' instance locks.
const INSTANCE_LOCK_SPACE = 7_402_152;

const describeWithPostgres = await describeIfAvailable({ postgres: POSTGRES_SERVER_URL });

const serviceEnv = (database: TestDatabase) => ({
  NODE_ENV: 'production',
  DATABASE_URL: database.url,
  JWT_SECRET: randomBytes(32).toString('hex'),
  ADMIN_PASSWORD,
});

async function login(service: ServiceProcess): Promise<string> {
  const response = await service.request('POST', '/api/auth/login', {
    body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
  });
  expect(response.status).toBe(200);
  return response.body.token as string;
}

/** Polls until `found` gives a value (no fixed waits: each turn is one request). */
async function pollFor<T>(look: () => Promise<T | undefined>): Promise<T> {
  for (;;) {
    const found = await look();
    if (found !== undefined) return found;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * Sends all of `body` but its last byte and holds it back: the run is then certainly still
 * going when the process is killed, whatever the machine's speed.
 */
function sendAllButLastByte(baseUrl: string, token: string, body: Buffer): void {
  const url = new URL(INGEST, baseUrl);
  const request = httpRequest(url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'content-length': body.length,
    },
  });
  // The process is killed under it.
  request.on('error', () => undefined);
  request.write(body.subarray(0, body.length - 1));
}

describe('a run whose process is killed', () => {
  let database: TestDatabase;

  afterEach(async () => {
    await ServiceProcess.killAll();
    await database?.drop();
  });

  it('is failed once the service starts again, and the store is as before', async () => {
    // A file for SQLite: the database outlives the process.
    database = await createTestDatabase({ file: true });
    const env = serviceEnv(database);
    const first = await ServiceProcess.start(env);
    const token = await login(first);
    const baseline = scannerPayload(20, 'kill-baseline', 31);
    expect((await first.request('POST', INGEST, { token, body: baseline })).status).toBe(200);
    const before = (await first.request('GET', '/api/assets?limit=1000', { token })).body;

    const payload = Buffer.from(JSON.stringify(scannerPayload(20_000, 'kill-run', 32)));
    sendAllButLastByte(first.baseUrl, token, payload);
    const running = await pollFor(async () => {
      const listed = await first.request('GET', `${RUNS}?status=running`, { token });
      return (listed.body as { id: string }[])[0];
    });
    first.signal('SIGKILL');
    await first.exited;

    if (testingPostgres()) await waitUntilInstanceLockFree(database, running.id);
    const second = await ServiceProcess.start(env);
    const again = await login(second);
    const run = await second.request('GET', `${RUNS}/${running.id}`, { token: again });
    expect(run.body).toMatchObject({
      id: running.id,
      status: 'failed',
      error: expect.stringMatching(/process .* stopped/),
      stats: null,
      finishedAt: expect.any(String),
    });
    const stillRunning = await second.request('GET', `${RUNS}?status=running`, { token: again });
    expect(stillRunning.body).toEqual([]);
    const after = (await second.request('GET', '/api/assets?limit=1000', { token: again })).body;
    expect(after).toEqual(before);
  }, 120_000);
});

/**
 * PostgreSQL ends a killed client's session as it notices the closed connection: the sweep of
 * the next start-up relies on the dead process's lock being free, so the test waits for it.
 */
async function waitUntilInstanceLockFree(database: TestDatabase, runId: string): Promise<void> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ instance_id: number }>(
      'SELECT instance_id FROM ingestion_runs WHERE id = $1',
      [runId],
    );
    const instance = rows[0].instance_id;
    await pollFor(async () => {
      const taken = await client.query<{ free: boolean }>(
        'SELECT pg_try_advisory_lock($1, $2) AS free',
        [INSTANCE_LOCK_SPACE, instance],
      );
      return taken.rows[0].free ? true : undefined;
    });
    await client.query('SELECT pg_advisory_unlock($1, $2)', [INSTANCE_LOCK_SPACE, instance]);
  } finally {
    await client.end();
  }
}

describeWithPostgres('two replicas sent one Idempotency-Key at once', () => {
  let database: TestDatabase;

  afterAll(async () => {
    await ServiceProcess.killAll();
    await database?.drop();
  });

  it('run it once: the other answers the kept answer or 409, never a second run', async () => {
    database = await createTestDatabase({ postgres: POSTGRES_SERVER_URL });
    const env = serviceEnv(database);
    const [a, b] = await Promise.all([ServiceProcess.start(env), ServiceProcess.start(env)]);
    const token = await login(a);
    const created = await a.request('POST', '/api/auth/api-keys', {
      token,
      body: { name: 'ci' },
    });
    const key = created.body.key as string;
    const payload = scannerPayload(3_000, 'replicas-key', 33);
    const body = JSON.stringify(payload);

    const send = async (service: ServiceProcess) => {
      const response = await fetch(`${service.baseUrl}${INGEST}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          'idempotency-key': 'pipeline-81',
        },
        body,
      });
      return { status: response.status, headers: response.headers, text: await response.text() };
    };
    const answers = await Promise.all([send(a), send(b)]);
    const ran = answers.filter(
      (answer) => answer.status === 200 && answer.headers.get('idempotent-replayed') === null,
    );
    expect(ran).toHaveLength(1);
    const other = answers.find((answer) => answer !== ran[0])!;
    if (other.status === 200) {
      expect(other.headers.get('idempotent-replayed')).toBe('true');
      expect(other.text).toBe(ran[0].text);
    } else {
      expect(other.status).toBe(409);
    }

    const succeeded = await b.request(
      'GET',
      `${RUNS}?source=${payload.options.source}&status=succeeded`,
      { token },
    );
    expect(succeeded.body.map((run: { id: string }) => run.id)).toEqual([
      JSON.parse(ran[0].text).runId,
    ]);
    expect(JSON.parse(ran[0].text).stats.assetsCreated).toBe(3_000);
    // Once the first has ended, either replica gives the kept answer.
    for (const service of [a, b]) {
      const replay = await send(service);
      expect([replay.status, replay.headers.get('idempotent-replayed')]).toEqual([200, 'true']);
      expect(replay.text).toBe(ran[0].text);
    }
  }, 120_000);
});
