// GET /api/assets/export of a million assets as CSV, against a bare Node.js server writing the
// same CSV through the raw driver (bench/baseline-export.mjs), in paired rounds; and how much the
// service's resident memory grows while it streams them. The store is loaded by raw SQL, as the
// findings stage grows its own: a million assets through the API would take minutes of the run.
import { fork } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { clearInterval, setInterval } from 'node:timers';
import { limitRow, medianRound, stop } from '../harness.mjs';
import { openRaw } from '../lib.mjs';

const ASSETS = 1_000_000;
const QUICK_ASSETS = 20_000;
/** The resident memory the service may add while it streams the export. */
const MAX_GROWTH_MB = 150;

/**
 * `count` assets, one a millisecond apart (so that the export's order is theirs), each with a
 * service and a source; a vendor in ten needs quoting, a model in ten a formula's quote.
 */
async function loadAssets(url, count) {
  const db = openRaw(url);
  try {
    const postgres = db.kind === 'postgres';
    const prefix = postgres
      ? ''
      : `WITH RECURSIVE counter(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM counter WHERE n < ${count}) `;
    const numbers = postgres ? `generate_series(1, ${count}) AS n` : 'counter';
    // Milliseconds only: what both sides show of a timestamp.
    const time = postgres
      ? `date_trunc('milliseconds', now()) - make_interval(secs => (${count} - n) / 1000.0)`
      : `strftime('%Y-%m-%d %H:%M:%f', 'now', '-' || ((${count} - n) / 1000.0) || ' seconds')`;
    const text = (expression) => (postgres ? `CAST(${expression} AS text)` : expression);
    await db.exec(`${prefix}INSERT INTO assets (id, name, ip, type, vendor, model, risk_score, site,
        os_version, source, origin, first_seen_at, last_seen_at, created_at, updated_at)
      SELECT 'host-' || n, 'host ' || n, '10.' || ${text('(n / 65536) % 256')} || '.' || ${text('(n / 256) % 256')} || '.' || ${text('n % 256')},
        CASE WHEN n % 3 = 0 THEN 'switch' ELSE 'server' END,
        CASE WHEN n % 10 = 0 THEN 'Dell, Inc.' ELSE 'Cisco' END,
        CASE WHEN n % 10 = 5 THEN '=M-' || ${text('n % 50')} ELSE 'M-' || ${text('n % 50')} END,
        n % 101, 'site-' || ${text('n % 20')}, 'os ' || ${text('n % 7')}, 'bench', 'ingest',
        ${time}, ${time}, ${time}, ${time}
      FROM ${numbers}`);
    await db.exec(`${prefix}INSERT INTO services (asset_id, port, protocol, name, product, version)
      SELECT 'host-' || n, 22, 'tcp', 'ssh', 'OpenSSH', '9.2' FROM ${numbers}`);
    await db.exec(`${prefix}INSERT INTO asset_sources (asset_id, source, position)
      SELECT 'host-' || n, 'bench', 0 FROM ${numbers}`);
    if (postgres) await db.exec('VACUUM (ANALYZE) assets, services, asset_sources');
  } finally {
    await db.close();
  }
}

/** A process's resident memory now (VmRSS), in MB. */
const rssMb = (pid) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

/**
 * Downloads `url` as a client that reads as fast as it can: milliseconds, bytes, the body's
 * SHA-256, and (`pid` given) that process's highest resident memory meanwhile, sampled.
 */
function download(url, headers, pid) {
  return new Promise((resolve, reject) => {
    let peak = pid === undefined ? 0 : rssMb(pid);
    const sampler =
      pid === undefined ? null : setInterval(() => (peak = Math.max(peak, rssMb(pid))), 20);
    const started = performance.now();
    const hash = createHash('sha256');
    let bytes = 0;
    const done = (error, result) => {
      if (sampler) clearInterval(sampler);
      if (error) reject(error);
      else resolve(result);
    };
    request(url, { headers, agent: false }, (response) => {
      if (response.statusCode !== 200) {
        done(new Error(`${url}: ${response.statusCode}`));
        response.resume();
        return;
      }
      response.on('data', (chunk) => {
        bytes += chunk.length;
        hash.update(chunk);
      });
      response.on('end', () =>
        done(null, {
          ms: performance.now() - started,
          bytes,
          sha256: hash.digest('hex'),
          peakMb: pid === undefined ? 0 : Math.max(peak, rssMb(pid)),
        }),
      );
      response.on('error', done);
    })
      .on('error', done)
      .end();
  });
}

export default {
  name: 'export',
  async run(h, { quick }) {
    const count = quick ? QUICK_ASSETS : ASSETS;
    const rounds = quick ? 1 : 3;
    const { url, service } = await h.freshService('export');
    let baseline;
    try {
      h.log(`  loading ${count} assets by SQL`);
      await loadAssets(url, count);
      baseline = fork(join(h.root, 'bench/baseline-export.mjs'), [url], { stdio: 'inherit' });
      const { port } = await new Promise((resolve) => baseline.once('message', resolve));
      const sides = {
        service: () => {
          const before = rssMb(service.pid);
          return download(`${service.base}/api/assets/export`, service.auth, service.pid).then(
            (result) => ({ ...result, growthMb: result.peakMb - before }),
          );
        },
        baseline: () => download(`http://127.0.0.1:${port}/export`, {}),
      };
      const results = [];
      for (let round = 0; round < rounds; round++) {
        const result = {};
        for (const side of round % 2 === 0 ? ['baseline', 'service'] : ['service', 'baseline'])
          result[side] = await sides[side]();
        if (result.service.sha256 !== result.baseline.sha256) {
          throw new Error(
            `the service's CSV (${result.service.bytes} bytes) differs from the baseline's (${result.baseline.bytes} bytes)`,
          );
        }
        results.push(result);
        h.log(
          `  export round ${round + 1}: ${result.service.ms.toFixed(0)} ms against ${result.baseline.ms.toFixed(0)} ms, ${(result.service.bytes / 2 ** 20).toFixed(1)} MiB, service RSS +${result.service.growthMb.toFixed(1)} MB`,
        );
      }
      // Throughput: assets a second, the service's against the baseline's.
      const ratio = (r) => r.baseline.ms / r.service.ms;
      const median = medianRound(results, ratio);
      const rows = [
        {
          figure: `export ${count} assets as CSV / raw driver (assets/s)`,
          service: (count * 1000) / median.service.ms,
          baseline: (count * 1000) / median.baseline.ms,
          ratio: ratio(median),
          target: '>= 0.5',
          pass: ratio(median) >= 0.5,
          rounds: results.map(ratio),
        },
        limitRow(
          `service RSS growth while exporting ${count} assets (MB)`,
          Math.max(...results.map((r) => r.service.growthMb)),
          MAX_GROWTH_MB,
        ),
      ];
      return {
        rows,
        detail: { count, bytes: median.service.bytes, rounds: results },
      };
    } finally {
      if (baseline) await stop(baseline);
      await service.stop();
    }
  },
};
