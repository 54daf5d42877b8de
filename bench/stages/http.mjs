// Throughput of /api/health, the asset list and the search on a store of COUNT assets, each
// against a bare Fastify server answering the same JSON through the raw driver
// (baseline-server.mjs), in paired rounds.
import { fork } from 'node:child_process';
import { join } from 'node:path';
import { ingest, load, pairedRow, stop } from '../harness.mjs';

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
        rows.push(
          await pairedRow(
            h,
            figure,
            {
              service: (d) => load(`${service.base}${path}`, needsAuth ? service.auth : {}, d),
              baseline: (d) => load(`http://127.0.0.1:${port}${path}`, {}, d),
            },
            { rounds, seconds: window, minRatio },
          ),
        );
      }
      return { rows };
    } finally {
      await stop(bare);
      await service.stop();
    }
  },
};
