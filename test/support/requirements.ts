import { describe } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { Redis } from 'ioredis';
import pg from 'pg';

/** The Redis server of the tests that need one (replicas sharing rate-limit counters). */
export const REDIS_SERVER_URL = 'redis://127.0.0.1:6379';

// One quick try: a server that is there answers on the loopback in a few milliseconds.
const PROBE_TIMEOUT_MS = 2_000;

/** The address without credentials, for messages. */
const where = (url: string): string => new URL(url).host;

async function postgresProblem(url: string): Promise<string | null> {
  const client = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: PROBE_TIMEOUT_MS,
  });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return null;
  } catch (error) {
    return `PostgreSQL does not answer at ${where(url)} (${(error as Error).message})`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function redisProblem(url: string): Promise<string | null> {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: PROBE_TIMEOUT_MS,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  // The event says why (ECONNREFUSED); connect() only rejects with "Connection is closed".
  let cause: Error | undefined;
  redis.on('error', (error: Error) => (cause = error));
  try {
    await redis.connect();
    await redis.ping();
    return null;
  } catch (error) {
    return `Redis does not answer at ${where(url)} (${(cause ?? (error as Error)).message})`;
  } finally {
    redis.disconnect();
  }
}

function commandProblem(command: string): string | null {
  const run = spawnSync(command, ['--version'], { stdio: 'ignore', timeout: PROBE_TIMEOUT_MS });
  return run.error || run.status !== 0 ? `the command ${command} is not installed` : null;
}

/**
 * For a test file that needs more than its test database (servers, or programs it runs):
 * probes them once and returns `describe` when they are there. When one is missing, the file's
 * tests are skipped with a warning that names it, except in CI (`CI=true`), where a missing one
 * fails the file: CI must run everything.
 */
export async function describeIfAvailable(needs: {
  postgres?: string;
  redis?: string;
  commands?: string[];
}): Promise<typeof describe | typeof describe.skip> {
  const servers = await Promise.all([
    needs.postgres ? postgresProblem(needs.postgres) : null,
    needs.redis ? redisProblem(needs.redis) : null,
  ]);
  const problems = [...servers, ...(needs.commands ?? []).map(commandProblem)].filter(
    (problem): problem is string => problem !== null,
  );
  if (problems.length === 0) return describe;
  const message = problems.join('; ');
  if (process.env.CI === 'true') throw new Error(`${message}, and CI=true runs every test`);
  console.warn(`Skipping these tests: ${message}.`);
  return describe.skip;
}
