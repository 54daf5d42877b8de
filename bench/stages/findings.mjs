// Findings: the first ingestion of COUNT assets with 3 vulnerabilities each (3 × COUNT findings)
// against the bulk load of the same rows, then a repeated run in which 1% of the findings are
// fixed (left out of their asset's list) and 1% are new against the raw driver doing the same
// updates, in paired rounds on emptied stores. Then the store grown to a million findings by raw
// SQL, on which the findings list, summary and trend are read against the asset list of the same
// service, in paired rounds.
import { Buffer } from 'node:buffer';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ingest, inTurn, load, pairedRow, ratioRow } from '../harness.mjs';
import { benchAsset, openRaw } from '../lib.mjs';

const SOURCE = 'findings';
const READ_FINDINGS = 1_000_000;
const QUICK_READ_FINDINGS = 100_000;
/** The read store's own findings are first seen over this many days before now. */
const SPREAD_DAYS = 180;

/**
 * Asset `i` with 3 vulnerabilities (the bench's two, and a third, critical on every tenth
 * asset). In the repeated run (`repeated`), 3 assets in 100 leave out their third (fixed: 1% of
 * the findings) and 3 others list a fourth (new: 1%).
 */
function findingsAsset(i, repeated) {
  const asset = benchAsset(i);
  asset.vulnerabilities.push({
    id: `CVE-2025-${String(i % 5000).padStart(4, '0')}-c`,
    score: i % 10 === 0 ? 9.8 : 5.4,
    summary: 'third finding',
    publishedDate: '2025-05-06',
  });
  if (repeated && i % 100 < 3) asset.vulnerabilities.pop();
  if (repeated && i % 100 >= 50 && i % 100 < 53)
    asset.vulnerabilities.push({
      id: `CVE-2026-${i}-d`,
      score: 8.1,
      summary: 'new finding',
      publishedDate: '2026-01-02',
    });
  return asset;
}

/** The payload of assets 0 to `count` - 1, written to a file for the baselines: `{ file, body }`. */
function findingsPayload(h, count, repeated) {
  const assets = [];
  for (let i = 0; i < count; i++) assets.push(findingsAsset(i, repeated));
  const body = Buffer.from(
    JSON.stringify({ options: { mode: 'merge', source: SOURCE }, assets, relations: [] }),
  );
  const file = join(h.work, `findings-${repeated ? 'repeated' : 'first'}-${count}.json`);
  writeFileSync(file, body);
  return { file, body };
}

/** The service's stats must say what the payloads do: each count `expected` names. */
function checkStats(stats, expected, what) {
  for (const [key, value] of Object.entries(expected))
    if (stats[key] !== value) throw new Error(`${what}: ${key} is ${stats[key]}, not ${value}`);
}

/**
 * What a store holds, counted: the service's and the baseline's must agree after the same runs
 * (the findings' ids and times aside).
 */
async function storeCounts(url) {
  const db = openRaw(url);
  try {
    const [counts] = await db.all(`SELECT
      (SELECT COUNT(*) FROM assets) AS assets,
      (SELECT COUNT(*) FROM assets WHERE updated_at > created_at) AS assets_updated,
      (SELECT COUNT(*) FROM findings WHERE status = 'open') AS open,
      (SELECT COUNT(*) FROM findings WHERE status = 'fixed' AND fixed_at IS NOT NULL) AS fixed,
      (SELECT COUNT(*) FROM findings WHERE last_seen_at > first_seen_at) AS seen_again,
      (SELECT COUNT(*) FROM finding_sources) AS sources,
      (SELECT COUNT(*) FROM finding_periods WHERE closed_at IS NULL) AS open_periods,
      (SELECT COUNT(*) FROM finding_periods WHERE closed_at IS NOT NULL) AS closed_periods`);
    return Object.fromEntries(Object.entries(counts).map(([key, n]) => [key, Number(n)]));
  } finally {
    await db.close();
  }
}

/**
 * Findings added by raw SQL up to `total` (not through the API: 700,000 more by ingestion would
 * take minutes, and all be open and first seen now), spread over the payload's `assets` assets:
 * first seen over the SPREAD_DAYS days before now; of each 20, 12 open, 5 fixed half way since
 * then, 1 false positive and 2 accepted for 30 days more; scores 0.0 to 9.9 evenly (a tenth
 * critical); each with its source and its period (closed for the fixed and the false positive).
 * Answers how many were added.
 */
export async function growStore(url, total, assets) {
  const db = openRaw(url);
  try {
    const [{ n: stored }] = await db.all('SELECT COUNT(*) AS n FROM findings');
    const extra = total - Number(stored);
    const step = Math.floor((SPREAD_DAYS * 86_400) / extra);
    const postgres = db.kind === 'postgres';
    // n from 1 to extra; s: seconds from its first sighting to now; k: its kind, of 20.
    const prefix = postgres
      ? ''
      : `WITH RECURSIVE counter(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM counter WHERE n < ${extra}) `;
    const numbers = `(SELECT n, n * ${step} AS s, n % 20 AS k FROM ${postgres ? `generate_series(1, ${extra}) AS n` : 'counter'}) f`;
    const id = postgres
      ? `lpad(to_hex(n), 8, '0') || '-0000-7000-8000-000000000000'`
      : `printf('%08x-0000-7000-8000-000000000000', n)`;
    const ago = (seconds) =>
      postgres
        ? `now() - make_interval(secs => ${seconds})`
        : `strftime('%Y-%m-%d %H:%M:%f', 'now', '-' || (${seconds}) || ' seconds')`;
    const later = postgres
      ? `now() + interval '30 days'`
      : `strftime('%Y-%m-%d %H:%M:%f', 'now', '+30 days')`;
    const fixed = 'k BETWEEN 12 AND 16';
    const severity = `CASE WHEN n % 100 >= 90 THEN 'critical' WHEN n % 100 >= 70 THEN 'high'
      WHEN n % 100 >= 40 THEN 'medium' WHEN n % 100 > 0 THEN 'low' ELSE 'none' END`;
    await db.exec(`${prefix}INSERT INTO findings (id, asset_id, vuln_id, score, severity, summary,
        published_date, status, first_seen_at, last_seen_at, fixed_at, reopen_count, reason, accepted_until)
      SELECT ${id}, 'host-' || (n % ${assets}), 'CVE-2023-' || (n / ${assets}) || '-' || (n % 997),
        (n % 100) / 10.0,
        ${severity},
        'bench finding', ${postgres ? "DATE '2023-06-01'" : "'2023-06-01'"},
        CASE WHEN k < 12 THEN 'open' WHEN ${fixed} THEN 'fixed' WHEN k = 17 THEN 'false_positive' ELSE 'accepted' END,
        ${ago('s')}, CASE WHEN ${fixed} THEN ${ago('s * 3 / 4')} ELSE ${ago('s / 8')} END,
        CASE WHEN ${fixed} THEN ${ago('s / 2')} END, 0,
        CASE WHEN k >= 17 THEN 'bench triage' END, CASE WHEN k >= 18 THEN ${later} END
      FROM ${numbers}`);
    await db.exec(
      `${prefix}INSERT INTO finding_sources (finding_id, source, position) SELECT ${id}, '${SOURCE}', 0 FROM ${numbers}`,
    );
    await db.exec(`${prefix}INSERT INTO finding_periods (finding_id, opened_at, severity, closed_at)
      SELECT ${id}, ${ago('s')}, ${severity},
        CASE WHEN ${fixed} THEN ${ago('s / 2')} WHEN k = 17 THEN ${ago('s / 4')} END
      FROM ${numbers}`);
    // As autovacuum would leave them, before the rounds rather than during one.
    if (postgres)
      await db.exec('VACUUM (ANALYZE) findings, finding_sources, finding_periods, assets');
    return extra;
  } finally {
    await db.close();
  }
}

export default {
  name: 'findings',
  async run(h, { quick, count }) {
    const rounds = quick ? 1 : 3;
    const readRounds = quick ? 3 : 5;
    const seconds = quick ? 1 : 3;
    // The summary and the trend read every finding or period: at a million, a few answers a
    // second at most, so their windows are longer, for enough answers.
    const longSeconds = quick ? 1 : 9;
    const readFindings = quick ? QUICK_READ_FINDINGS : READ_FINDINGS;
    const first = findingsPayload(h, count, false);
    const repeated = findingsPayload(h, count, true);
    // 3 assets in 100 lose a finding, 3 others gain one.
    const changed = (count / 100) * 6;
    const moved = (count / 100) * 3;
    const baselineDb = await h.baselineDatabase('findings_baseline');
    const { url: serviceDb, service } = await h.freshService('findings');
    try {
      const results = [];
      for (let round = 0; round < rounds; round++) {
        const result = {};
        const serviceSide = async () => {
          await h.wipe(serviceDb);
          const firstRun = await ingest(service, first.body);
          checkStats(
            firstRun.stats,
            { assetsCreated: count, findingsOpened: 3 * count, findingsFixed: 0 },
            'the first ingestion',
          );
          const repeatRun = await ingest(service, repeated.body);
          checkStats(
            repeatRun.stats,
            {
              assetsUpdated: changed,
              assetsUnchanged: count - changed,
              findingsOpened: moved,
              findingsReopened: 0,
              findingsFixed: moved,
            },
            'the repeated run',
          );
          Object.assign(result, { first: firstRun.ms, repeat: repeatRun.ms });
        };
        const baselineSide = async () => {
          result.bulk = await h.baselineIngest(baselineDb, first.file, 'bulk');
          result.repeatRaw = await h.baselineIngest(baselineDb, repeated.file, 'repeat');
        };
        await inTurn(round, [baselineSide, serviceSide]);
        const [serviceCounts, baselineCounts] = [
          await storeCounts(serviceDb),
          await storeCounts(baselineDb),
        ];
        if (JSON.stringify(serviceCounts) !== JSON.stringify(baselineCounts))
          throw new Error(
            `the service's store ${JSON.stringify(serviceCounts)} is not the baseline's ${JSON.stringify(baselineCounts)}`,
          );
        results.push(result);
        h.log(
          `  findings round ${round + 1}: ${JSON.stringify(result, (_k, v) => (typeof v === 'number' ? Math.round(v) : v))}`,
        );
      }
      const size = `${count / 1000}k assets, ${(3 * count) / 1000}k findings`;
      const rows = [
        ratioRow(`first ingestion ${size} / bulk load (ms)`, results, 'first', 'bulk', 1.5),
        ratioRow(
          `repeated run ${size}, 1% fixed and 1% new / raw driver, the same updates (ms)`,
          results,
          'repeat',
          'repeatRaw',
          1.5,
        ),
      ];

      // The last round's store, grown for the reads.
      const added = await growStore(serviceDb, readFindings, count);
      h.log(`  ${added} findings added by SQL: ${readFindings} in the store`);
      const assetList = '/api/assets?limit=100';
      for (const [route, minRatio, shortest] of [
        ['/api/findings?status=open&severity=critical', 0.5, seconds],
        ['/api/findings/summary', 0.3, longSeconds],
        ['/api/findings/trend?days=90', 0.2, longSeconds],
        // The dashboard's other requests: its slowest is held to 0.2 of the list.
        ['/api/findings?status=fixed&sort=-fixedAt&limit=500', 0.2, seconds],
        ['/api/sources', 0.2, seconds],
        ['/api/integrations/runs?limit=10', 0.2, seconds],
        ['/api/assets?sort=-risk_score&limit=10', 0.2, seconds],
        // The exposure panel's first two (then an asset and its reachable ones at a time).
        ['/api/findings?status=open&severity=critical,high&sort=-score&limit=100', 0.2, seconds],
        ['/api/assets?tag=internet&limit=20', 0.2, seconds],
      ]) {
        const figure = `GET ${route}, ${readFindings / 1000}k findings / GET ${assetList} (req/s)`;
        // A service without the route (or failing on it) gets a failing row saying what it answered.
        const started = performance.now();
        const probe = await fetch(`${service.base}${route}`, { headers: service.auth });
        await probe.arrayBuffer();
        const probeSeconds = (performance.now() - started) / 1000;
        if (probe.status !== 200) {
          h.log(`  ${route} answered ${probe.status}: not measured`);
          rows.push({
            figure: `${figure}: not measured, ${route} answered ${probe.status}`,
            service: null,
            baseline: null,
            ratio: null,
            target: `>= ${minRatio}`,
            pass: false,
          });
          continue;
        }
        // At least the time of 10 answers one at a time: 10 connections sharing 2 cores finish
        // together, and a window shorter than that (a trend over a million periods can take
        // seconds) would close before any answer. At most 30 s, to bound the run.
        const window = Math.min(30, Math.max(shortest, Math.ceil(10 * probeSeconds)));
        h.log(`  ${route}: one answer in ${probeSeconds.toFixed(2)} s, windows of ${window} s`);
        rows.push(
          await pairedRow(
            h,
            figure,
            {
              service: (d) => load(`${service.base}${route}`, service.auth, d),
              baseline: (d) => load(`${service.base}${assetList}`, service.auth, d),
            },
            { rounds: readRounds, seconds: window, minRatio },
          ),
        );
      }
      return { rows, detail: { count, readFindings, rounds: results } };
    } finally {
      await service.stop();
    }
  },
};
