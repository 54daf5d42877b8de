import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { request as httpRequest } from 'node:http';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { ingestWithKey } from '../support/ingest-helpers.js';
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
 * going (reading its body) when the process is killed or another starts, whatever the
 * machine's speed. `finish` sends the last byte and gives the answer.
 */
function holdIngestion(
  baseUrl: string,
  token: string,
  body: Buffer,
  headers: Record<string, string> = {},
): { finish(): Promise<{ status: number; text: string }> } {
  const request = httpRequest(new URL(INGEST, baseUrl), {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'content-length': body.length,
      ...headers,
    },
  });
  const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode!, text: Buffer.concat(chunks).toString() }),
      );
    });
    request.on('error', reject);
  });
  // The process may be killed under it.
  answer.catch(() => undefined);
  request.write(body.subarray(0, body.length - 1));
  return {
    finish: () => {
      request.end(body.subarray(body.length - 1));
      return answer;
    },
  };
}

/** The one running run the service lists, once it does. */
const runningRun = (service: ServiceProcess, token: string) =>
  pollFor(async () => {
    const listed = await service.request('GET', `${RUNS}?status=running`, { token });
    return (listed.body as { id: string }[])[0];
  });

/** An ingestion with an Idempotency-Key, its answer's exact bytes. */
const sendKeyed = (service: ServiceProcess, token: string, body: string, key: string) =>
  ingestWithKey(service.baseUrl, token, body, key);

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

    const payload = JSON.stringify(scannerPayload(20_000, 'kill-run', 32));
    holdIngestion(first.baseUrl, token, Buffer.from(payload), { 'idempotency-key': 'job-9' });
    const running = await runningRun(first, token);
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

    // Its Idempotency-Key is free again: the same request runs.
    const retried = await sendKeyed(second, again, payload, 'job-9');
    expect(retried.status).toBe(200);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    expect(JSON.parse(retried.text).stats.assetsCreated).toBe(20_000);
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

/** The run that holds `key` while it runs (read from the table: no route shows it). */
async function claimingRun(database: TestDatabase, key: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ run_id: string }>(
      'SELECT run_id FROM idempotency_keys WHERE key = $1 AND status IS NULL',
      [key],
    );
    return rows[0]?.run_id;
  } finally {
    await client.end();
  }
}

describeWithPostgres('replicas on one PostgreSQL database', () => {
  let database: TestDatabase;
  let env: Record<string, string>;
  let a: ServiceProcess;
  let b: ServiceProcess;
  let token: string;

  beforeAll(async () => {
    database = await createTestDatabase({ postgres: POSTGRES_SERVER_URL });
    env = serviceEnv(database);
    [a, b] = await Promise.all([ServiceProcess.start(env), ServiceProcess.start(env)]);
    token = await login(a);
  }, 120_000);

  afterAll(async () => {
    await ServiceProcess.killAll();
    await database?.drop();
  });

  it('sent one Idempotency-Key at once run it once: the other answers the kept answer or 409', async () => {
    const created = await a.request('POST', '/api/auth/api-keys', {
      token,
      body: { name: 'ci' },
    });
    const key = created.body.key as string;
    const payload = scannerPayload(3_000, 'replicas-key', 33);
    const body = JSON.stringify(payload);

    const send = (service: ServiceProcess) => sendKeyed(service, key, body, 'pipeline-81');
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

  it("leave a live replica's running run alone as another starts", async () => {
    const payload = Buffer.from(JSON.stringify(scannerPayload(10, 'live-run', 34)));
    const held = holdIngestion(a.baseUrl, token, payload);
    const running = await runningRun(a, token);
    const c = await ServiceProcess.start(env);
    const seen = await c.request('GET', `${RUNS}/${running.id}`, { token });
    expect(seen.body.status).toBe('running');
    const answer = await held.finish();
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text).runId).toBe(running.id);
    expect((await c.request('GET', `${RUNS}/${running.id}`, { token })).body.status).toBe(
      'succeeded',
    );
    await c.kill();
  }, 120_000);

  it('free the Idempotency-Key of a replica killed during its run for the others', async () => {
    const doomed = await ServiceProcess.start(env);
    const body = JSON.stringify(scannerPayload(30_000, 'doomed-key', 35));
    void sendKeyed(doomed, token, body, 'job-doomed').catch(() => undefined);
    // The key is claimed once the body is in; the 30,000 assets take a while after that.
    const runId = await pollFor(() => claimingRun(database, 'job-doomed'));
    doomed.signal('SIGKILL');
    await doomed.exited;
    await waitUntilInstanceLockFree(database, runId);

    // No replica restarted: the one that meets the key finds its process gone.
    const retried = await sendKeyed(b, token, body, 'job-doomed');
    expect(retried.status).toBe(200);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    // The killed run wrote nothing.
    expect(JSON.parse(retried.text).stats.assetsCreated).toBe(30_000);
    const dead = await b.request('GET', `${RUNS}/${runId}`, { token });
    expect(dead.body).toMatchObject({ status: 'failed', error: expect.stringMatching(/stopped/) });
  }, 120_000);
});
