// Throughput of GET /api/assets/:id/changes on a store of RECORDS change records (loaded by raw
// SQL, not through the API: a million writes would take the run's whole budget), against
// GET /api/assets/:id on the same service, in paired rounds.
import { ingest, load, medianRound } from '../harness.mjs';
import { openRaw } from '../lib.mjs';

const RECORDS = 1_000_000;
const QUICK_RECORDS = 100_000;
/** The asset measured: one of the payload's, with its share of the records. */
const ASSET = 'host-7';
const COLUMNS =
  'id, time, action, object_type, object_id, actor_user_id, actor_email, request_id, before, after';

/**
 * `records` update records spread evenly over the payload's `assets` assets (`host-<n>`), one a
 * second up to now (well within the 90 days kept), in one statement.
 */
async function loadRecords(url, records, assets) {
  const db = openRaw(url);
  try {
    if (db.kind === 'postgres') {
      await db.exec(`INSERT INTO changes (${COLUMNS})
        SELECT lpad(to_hex(n), 8, '0') || '-0000-7000-8000-000000000000',
          now() - make_interval(secs => ${records} - n), 'update', 'asset', 'host-' || (n % ${assets}),
          'bench-user', 'bench@example.com', 'bench-' || n, '{"risk_score":1}', '{"risk_score":2}'
        FROM generate_series(1, ${records}) AS n`);
      await db.exec('ANALYZE changes');
    } else {
      await db.exec(`WITH RECURSIVE counter(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM counter WHERE n < ${records})
        INSERT INTO changes (${COLUMNS})
        SELECT printf('%08x-0000-7000-8000-000000000000', n),
          strftime('%Y-%m-%d %H:%M:%f', 'now', '-' || (${records} - n) || ' seconds'), 'update', 'asset',
          'host-' || (n % ${assets}), 'bench-user', 'bench@example.com', 'bench-' || n,
          '{"risk_score":1}', '{"risk_score":2}'
        FROM counter`);
    }
  } finally {
    await db.close();
  }
}

export default {
  name: 'changes',
  async run(h, { quick, count, payload }) {
    const seconds = quick ? 1 : 3;
    const rounds = quick ? 3 : 7;
    const records = quick ? QUICK_RECORDS : RECORDS;
    const { url, service } = await h.freshService('changes');
    try {
      await ingest(service, payload(count).body);
      await loadRecords(url, records, count);
      const measure = {
        service: (d = seconds) =>
          load(`${service.base}/api/assets/${ASSET}/changes`, service.auth, d),
        baseline: (d = seconds) => load(`${service.base}/api/assets/${ASSET}`, service.auth, d),
      };
      // Untimed load on each side first: the first second of load on an idle server runs slow.
      await measure.baseline(1);
      await measure.service(1);
      const results = [];
      for (let round = 0; round < rounds; round++) {
        const order = round % 2 === 0 ? ['baseline', 'service'] : ['service', 'baseline'];
        const result = {};
        for (const side of order) result[side] = await measure[side]();
        results.push(result);
        h.log(
          `  asset changes round ${round + 1}: ${result.service.toFixed(0)} against ${result.baseline.toFixed(0)}`,
        );
      }
      const median = medianRound(results, (r) => r.service / r.baseline);
      const ratio = median.service / median.baseline;
      return {
        rows: [
          {
            figure: `GET /api/assets/:id/changes, ${records / 1000}k records / GET /api/assets/:id (req/s)`,
            service: median.service,
            baseline: median.baseline,
            ratio,
            target: '>= 0.8',
            pass: ratio >= 0.8,
            rounds: results.map((r) => r.service / r.baseline),
          },
        ],
      };
    } finally {
      await service.stop();
    }
  },
};
