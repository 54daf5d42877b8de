// Throughput of GET /api/assets/:id/changes on a store of RECORDS change records (loaded by raw
// SQL, not through the API: a million writes would take the run's whole budget), against
// GET /api/assets/:id on the same service, in paired rounds.
import { ingest, load, pairedRow } from '../harness.mjs';
import { openRaw } from '../lib.mjs';

const RECORDS = 1_000_000;
const QUICK_RECORDS = 100_000;
/** The asset measured: one of the payload's, with its share of the records. */
const ASSET = 'host-7';
const COLUMNS = 'id, time, action, object_type, object_id, change_set_id, before, after';
const SET_COLUMNS = 'id, actor_user_id, actor_email, request_id';
// Past the ids of the change sets the service made (the payload's ingestion).
const FIRST_SET = 1_000_000_000;

/**
 * `records` update records spread evenly over the payload's `assets` assets (`host-<n>`), one a
 * second up to now (well within the 90 days kept), each by a request of its own (its change
 * set), in two statements.
 */
async function loadRecords(url, records, assets) {
  const db = openRaw(url);
  try {
    if (db.kind === 'postgres') {
      await db.exec(`INSERT INTO change_sets (${SET_COLUMNS})
        SELECT ${FIRST_SET} + n, 'bench-user', 'bench@example.com', 'bench-' || n FROM generate_series(1, ${records}) AS n`);
      await db.exec(`INSERT INTO changes (${COLUMNS})
        SELECT lpad(to_hex(n), 8, '0') || '-0000-7000-8000-000000000000',
          now() - make_interval(secs => ${records} - n), 'update', 'asset', 'host-' || (n % ${assets}),
          ${FIRST_SET} + n, '{"risk_score":1}', '{"risk_score":2}'
        FROM generate_series(1, ${records}) AS n`);
      await db.exec('ANALYZE change_sets; ANALYZE changes');
    } else {
      const counter = `WITH RECURSIVE counter(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM counter WHERE n < ${records})`;
      await db.exec(`${counter} INSERT INTO change_sets (${SET_COLUMNS})
        SELECT ${FIRST_SET} + n, 'bench-user', 'bench@example.com', 'bench-' || n FROM counter`);
      await db.exec(`${counter} INSERT INTO changes (${COLUMNS})
        SELECT printf('%08x-0000-7000-8000-000000000000', n),
          strftime('%Y-%m-%d %H:%M:%f', 'now', '-' || (${records} - n) || ' seconds'), 'update', 'asset',
          'host-' || (n % ${assets}), ${FIRST_SET} + n, '{"risk_score":1}', '{"risk_score":2}'
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
