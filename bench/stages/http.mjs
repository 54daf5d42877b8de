// Throughput of /api/health, the asset list and the search on a store of COUNT assets, each
// against a bare Fastify server answering the same JSON through the raw driver
// (baseline-server.mjs), in paired rounds.
import { fork } from 'node:child_process';
import { join } from 'node:path';
import { ingest, load, medianRound, stop } from '../harness.mjs';

export default {
  name: 'http',
  async run(h, { quick, count, payload }) {
    // Short rounds, many of them: each round's two windows are seconds apart, so the machine's
    // drift (15% and more within a run here) moves both sides of a round alike.
    const seconds = quick ? 1 : 3;
    const rounds = quick ? 3 : 7;
    const searchSeconds = quick ? 1 : 9;
    const { url: db, service } = await h.freshService('http');
    await ingest(service, payload(count).body);
    const bare = fork(join(h.root, 'bench/baseline-server.mjs'), ['0', db], { stdio: 'inherit' });
    try {
      const { port } = await new Promise((resolve) => bare.once('message', resolve));
      const rows = [];
      // The search answers a few requests a second: its windows are longer, for enough answers.
      for (const [figure, path, needsAuth, window, minRatio] of [
        ['health throughput (req/s)', '/api/health', false, seconds, 0.7],
        ['asset list, limit=100 (req/s)', '/api/assets?limit=100', true, seconds, 0.8],
        [
          'asset search, limit=100 (req/s)',
          '/api/assets?limit=100&search=host%2012',
          true,
          searchSeconds,
          0.8,
        ],
      ]) {
        const measure = {
          service: (d = window) => load(`${service.base}${path}`, needsAuth ? service.auth : {}, d),
          baseline: (d = window) => load(`http://127.0.0.1:${port}${path}`, {}, d),
        };
        // A second of untimed load on each side first: the first second of load on a server
        // that was idle or just started runs at down to half speed here, on either server.
        await measure.baseline(1);
        await measure.service(1);
        const results = [];
        for (let round = 0; round < rounds; round++) {
          // Which side goes first alternates: neither always runs just after the other's load.
          const order = round % 2 === 0 ? ['baseline', 'service'] : ['service', 'baseline'];
          const result = {};
          for (const side of order) result[side] = await measure[side]();
          results.push(result);
          h.log(
            `  ${figure} round ${round + 1}: ${result.service.toFixed(0)} against ${result.baseline.toFixed(0)}`,
          );
        }
        const median = medianRound(results, (r) => r.service / r.baseline);
        const ratio = median.service / median.baseline;
        rows.push({
          figure,
          service: median.service,
          baseline: median.baseline,
          ratio,
          target: `>= ${minRatio}`,
          pass: ratio >= minRatio,
          rounds: results.map((r) => r.service / r.baseline),
        });
      }
      return { rows };
    } finally {
      await stop(bare);
      await service.stop();
    }
  },
};
