// Throughput of GET /api/assets/:id/changes on a store of RECORDS change records (loaded by raw
// SQL, not through the API: a million writes would take the run's whole budget), against
// GET /api/assets/:id on the same service, in paired rounds.
import { ingest, load, pairedRow } from '../harness.mjs';
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
      const row = await pairedRow(
        h,
        `GET /api/assets/:id/changes, ${records / 1000}k records / GET /api/assets/:id (req/s)`,
        {
          service: (d) => load(`${service.base}/api/assets/${ASSET}/changes`, service.auth, d),
          baseline: (d) => load(`${service.base}/api/assets/${ASSET}`, service.auth, d),
        },
        { rounds, seconds, minRatio: 0.8 },
      );
      return { rows: [row] };
    } finally {
      await service.stop();
    }
  },
};
