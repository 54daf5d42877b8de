// What every stage uses: fresh databases, the built service started as production starts it,
// the load generator, the raw baselines as child processes, and the median of paired rounds.
import autocannon from 'autocannon';
import { Buffer } from 'node:buffer';
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { URLSearchParams } from 'node:url';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import pg from 'pg';
import { openRaw } from './lib.mjs';

const ADMIN_PASSWORD = 'bench-admin-password';
/** The service's default INGEST_MAX_BYTES: only the 100,000-host Nmap XML needs a higher one. */
export const INGEST_MAX_BYTES = 64 * 1024 * 1024;
/** The tables an ingestion writes, children first (its change records included). */
const INGESTED_TABLES = [
  'relations',
  'finding_periods',
  'finding_sources',
  'findings',
  'services',
  'asset_sources',
  'asset_identifiers',
  'asset_aliases',
  'assets',
  'changes',
  'change_sets',
];

/**
 * The arguments `npm run start:prod` gives node (its heap limit, then the entry file): the bench
 * measures the service as that script runs it.
 */
function startProdArguments(root) {
  const script = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts['start:prod'];
  const [command, ...args] = script.trim().split(/\s+/);
  if (command !== 'node') throw new Error(`npm run start:prod does not run node: ${script}`);
  return args;
}

export function createHarness({ root, work, pgUrl, log }) {
  const children = [];
  const cleanups = [];
  let databases = 0;

  /** The URL of a new, empty database (a SQLite file, or a PostgreSQL schema of its own). */
  async function newDatabase(name) {
    const tag = `${name}_${++databases}`;
    if (!pgUrl) return `sqlite:${join(work, `${tag}.sqlite`)}`;
    const schema = `bench_${tag}_${process.pid}`;
    await pgAdmin(`DROP SCHEMA IF EXISTS ${schema} CASCADE; CREATE SCHEMA ${schema}`);
    cleanups.push(() => pgAdmin(`DROP SCHEMA IF EXISTS ${schema} CASCADE`));
    const withPath = new URL(pgUrl);
    withPath.searchParams.set('options', `-c search_path=${schema}`);
    return withPath.toString();
  }

  /** A baseline's database: new, with the service's schema (a boot of the service makes it). */
  async function baselineDatabase(name) {
    const url = await newDatabase(name);
    await (await startService(url)).stop();
    return url;
  }

  /** The service started on a new database of its own: `{ service, url }`; `env` adds settings. */
  async function freshService(name, env = {}) {
    const url = await newDatabase(name);
    return { url, service: await startService(url, env) };
  }

  async function pgAdmin(sql) {
    const client = new pg.Client({ connectionString: pgUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  }

  /** The service, as `npm run start:prod` starts it, on `databaseUrl`, ready and logged in as the admin. */
  async function startService(databaseUrl, env = {}) {
    const port = await freePort();
    const child = spawn(process.execPath, startProdArguments(root), {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'production',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: databaseUrl,
        JWT_SECRET: 'bench-secret-bench-secret-bench-secret',
        ADMIN_PASSWORD,
        RATE_LIMIT: '1000000000',
        LOG_LEVEL: 'warn',
        ...env,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    children.push(child);
    const base = `http://127.0.0.1:${port}`;
    await waitFor(`${base}/api/health/ready`, child);
    const login = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@localhost', password: ADMIN_PASSWORD }),
    });
    const { token } = await login.json();
    return {
      base,
      pid: child.pid,
      auth: { authorization: `Bearer ${token}` },
      /** The process's peak resident memory so far (VmHWM: the kernel's own high-water mark). */
      peakRssMb: () =>
        Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))[1]) /
        1024,
      /** The CPU time the process has used so far, all its threads (ms). */
      cpuMs: () => processCpuMs(child.pid),
      stop: () => stop(child),
      /** Once its store is at rest (settled). */
      settled: () => settled(databaseUrl),
    };
  }

  /** Empties the ingested tables, on the service's database or a baseline's. */
  async function wipe(url) {
    const db = openRaw(url);
    try {
      if (db.kind === 'postgres') await db.exec(`TRUNCATE ${INGESTED_TABLES.join(', ')}`);
      else await db.exec(INGESTED_TABLES.map((t) => `DELETE FROM ${t};`).join(' '));
    } finally {
      await db.close();
    }
  }

  /**
   * One run of `baseline-ingest.mjs` (`way`: raw or bulk on an emptied database; repeat on the
   * store as it is): milliseconds.
   */
  async function baselineIngest(url, payloadFile, way) {
    if (way !== 'repeat') await wipe(url);
    const out = execFileSync(
      process.execPath,
      [join(root, 'bench/baseline-ingest.mjs'), way, url, payloadFile],
      { cwd: root },
    );
    return Number(out.toString().trim());
  }

  async function cleanup() {
    for (const child of children) await stop(child);
    for (const clean of cleanups) await clean();
  }

  /**
   * Once the write-ahead log of `url` (SQLite) is checkpointed: the service checkpoints in the
   * background after answering a large write, so that the next timed run starts on a store at
   * rest, as the baselines' runs do (theirs checkpoint as they write). PostgreSQL: at once.
   */
  async function settled(url) {
    if (!url.startsWith('sqlite:')) return;
    const db = new Database(url.slice('sqlite:'.length), { timeout: 10_000 });
    try {
      for (;;) {
        // busy: another connection (the service's checkpoint) holds the checkpoint lock.
        const [{ busy, log, checkpointed }] = db.pragma('wal_checkpoint(PASSIVE)');
        if (busy === 0 && checkpointed === log) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      db.close();
    }
  }

  return {
    freshService,
    baselineDatabase,
    wipe,
    settled,
    baselineIngest,
    cleanup,
    log,
    pgUrl,
    root,
    work,
  };
}

/** Clock ticks a second, as /proc/<pid>/stat counts CPU time. */
let ticksPerSecond = null;

/**
 * The user and system CPU time a process has used so far, all its threads (ms): a measure of
 * its own work that other processes' load on the machine moves less than the clock's.
 */
export function processCpuMs(pid) {
  ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // After the command's name (in parentheses, which may hold spaces): utime, stime are the
  // 12th and 13th fields.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitFor(url, child, tries = 600) {
  for (let i = 0; i < tries; i++) {
    if (child && child.exitCode !== null) throw new Error(`the service exited (${child.exitCode})`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not come up`);
}

export function stop(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    // A process that has not shut down within 10 s is killed.
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** Answers a second over `duration` seconds of load by 10 connections. */
export async function load(url, headers, duration) {
  // Slow answers (a trend over a million periods, queued behind nine others) are measured, not
  // dropped: autocannon's default 10 s timeout counted them as errors.
  const result = await autocannon({ url, connections: 10, duration, headers, timeout: 120 });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  // The requests still running when the window closed (a search takes seconds on PostgreSQL)
  // go on in the server: the next window starts once they are done, or they slow it down.
  await new Promise((resolve) => setTimeout(resolve, Math.min(result.latency.max, 120_000)));
  // Answers over the window's whole length: finer than the average of per-second counts.
  return result.requests.total / result.duration;
}

/**
 * One request on a connection of its own: a kept-alive socket left idle while the baselines run
 * (a minute or more) can be closed by the server just as it is reused.
 */
function request(url, { method = 'GET', headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers, agent: false }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString() }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** bench/health-probe.mjs on `base`, once it answers; `stop()` answers its slowest answer (ms). */
export async function healthProbe(base) {
  const child = spawn(process.execPath, [join(import.meta.dirname, 'health-probe.mjs'), base], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let out = '';
  let ready;
  const isReady = new Promise((resolve) => (ready = resolve));
  child.stdout.on('data', (chunk) => {
    out += chunk;
    if (out.startsWith('ready\n')) ready();
  });
  const exited = new Promise((resolve, reject) =>
    child.on('exit', (code) => {
      const worst = /worst (\S+)/.exec(out);
      if (code === 0 && worst) resolve(Number(worst[1]));
      else reject(new Error(`the health probe exited with ${code}`));
    }),
  );
  await Promise.race([isReady, exited]);
  return {
    stop() {
      child.stdin.end();
      return exited;
    },
  };
}

/**
 * One ingestion through the service, `/api/health` probed every 20 ms meanwhile. `contentType`,
 * `headers` (Content-Encoding, say) and `query` (a scanner format's options) go with the body.
 */
export async function ingest(
  service,
  body,
  { contentType = 'application/json', headers, query } = {},
) {
  const probe = await healthProbe(service.base);
  const started = performance.now();
  const search = query ? `?${new URLSearchParams(query)}` : '';
  const response = await request(`${service.base}/api/integrations/ingest${search}`, {
    method: 'POST',
    headers: { ...service.auth, 'content-type': contentType, ...headers },
    body,
  });
  const ms = performance.now() - started;
  const worst = await probe.stop();
  // The checkpoint the answer left running is not the next timed run's to pay.
  await service.settled?.();
  if (response.status !== 200) throw new IngestRefused(response.status, response.text);
  const answer = JSON.parse(response.text);
  return { ms, worstHealthMs: worst, stats: answer.stats, dryRun: answer.dryRun };
}

/** An ingestion answered with another status than 200: `status`, and the answer's `text`. */
export class IngestRefused extends Error {
  constructor(status, text) {
    super(`ingestion answered ${status}: ${text}`);
    this.status = status;
    this.text = text;
  }
}

/** The round whose `ratio(round)` is the median one (rounds: an odd number). */
export function medianRound(rounds, ratio) {
  return [...rounds].sort((a, b) => ratio(a) - ratio(b))[rounds.length >> 1];
}

/**
 * Runs `sides` one after the other, in reverse order on odd rounds: neither side of a pair
 * always runs just after the other.
 */
export async function inTurn(round, sides) {
  for (const side of round % 2 === 0 ? sides : [...sides].reverse()) await side();
}

/**
 * A row comparing the throughput of two loads (`service(seconds)`, `baseline(seconds)`, each
 * answers a second) in paired rounds, with a minimum ratio. A second of untimed load on each
 * side first: the first second of load on a server that was idle or just started runs at down
 * to half speed here, on either server. Which side goes first alternates, so that neither
 * always runs just after the other's load; each round's two windows are seconds apart, so the
 * machine's drift moves both sides alike.
 */
export async function pairedRow(h, figure, { service, baseline }, { rounds, seconds, minRatio }) {
  await baseline(1);
  await service(1);
  const results = [];
  for (let round = 0; round < rounds; round++) {
    const result = {};
    await inTurn(round, [
      async () => (result.baseline = await baseline(seconds)),
      async () => (result.service = await service(seconds)),
    ]);
    results.push(result);
    h.log(
      `  ${figure} round ${round + 1}: ${result.service.toFixed(1)} against ${result.baseline.toFixed(1)}`,
    );
  }
  const median = medianRound(results, (r) => r.service / r.baseline);
  const ratio = median.service / median.baseline;
  return {
    figure,
    service: median.service,
    baseline: median.baseline,
    ratio,
    target: `>= ${minRatio}`,
    pass: ratio >= minRatio,
    rounds: results.map((r) => r.service / r.baseline),
  };
}

/** A table row comparing the service with a baseline: the median round's two figures. */
export function ratioRow(figure, rounds, service, baseline, maxRatio) {
  const round = medianRound(rounds, (r) => r[service] / r[baseline]);
  const ratio = round[service] / round[baseline];
  return {
    figure,
    service: round[service],
    baseline: round[baseline],
    ratio,
    target: maxRatio === undefined ? null : `<= ${maxRatio}`,
    pass: maxRatio === undefined ? null : ratio <= maxRatio,
    rounds: rounds.map((r) => r[service] / r[baseline]),
  };
}

/** A row with an absolute limit and no baseline. */
export function limitRow(figure, value, limit) {
  return {
    figure,
    service: value,
    baseline: null,
    ratio: null,
    target: `< ${limit}`,
    pass: value < limit,
  };
}
