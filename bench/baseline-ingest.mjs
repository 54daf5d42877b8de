// The ingestion baselines: JSON.parse of the same body, then the same rows written in one
// transaction into a database at the service's schema, foreign keys checked, as an ingestion
// with a source writes them.
//   raw:    into an empty database, what a first ingestion writes: assets of origin 'ingest',
//           first and last seen now, each with one asset_sources row (the payload's source,
//           position 0); each vulnerability an open finding, first and last seen now, with one
//           finding_sources row (the source, position 0) and its open period (finding_periods,
//           opened now); the relations. By the raw driver's usual fast path (better-sqlite3: one
//           prepared statement run per row; pg: one array parameter per column, expanded by
//           unnest, 10,000 rows a statement).
//   bulk:   the same rows by the strongest raw way known, the limit (SQLite: the secondary
//           indexes dropped, rows inserted 100 a statement, the indexes built again before the
//           commit; PostgreSQL: COPY FROM STDIN in text format through pg-copy-streams).
//   repeat: on a store holding a first ingestion of the same assets, what the service's repeated
//           run of this payload writes (change records aside, as above), by the raw path: each
//           asset's stored findings read, every listed one seen again (last_seen_at), a listed
//           one not stored opened as `raw` opens it, an open or accepted one not listed fixed
//           (status, fixed_at, its period closed, the source's finding_sources row deleted);
//           the assets' last_seen_at moved, with updated_at where the list changed. The bench's
//           payloads change no finding's values and list no fixed finding again: neither is
//           written here.
// Every asset's identity lists are written as the service writes them: each list's text in its
// asset's row, and one asset_identifiers row per value (an address by its sortable key). An
// asset's ip is its first address, its only one when the payload gives no `addresses` (the
// identity stage's payload gives them, with `macAddresses` and `hostnames`).
// Usage: node bench/baseline-ingest.mjs <raw|bulk|repeat> <database url> <payload file>; prints ms.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { from as copyFrom } from 'pg-copy-streams';
// The service's own (bench/run.mjs builds it first): a finding stores its score's severity,
// and its id is made as the service makes ids.
import { severityOf } from '../dist/common/field-rules/finding-values.js';
import { addressKey } from '../dist/common/field-rules/identity-values.js';
import { timeOrderedId } from '../dist/common/ids/time-ordered-id.js';
import { openRaw } from './lib.mjs';

const [way, url, file] = process.argv.slice(2);
if (!['raw', 'bulk', 'repeat'].includes(way)) throw new Error(`unknown way ${way}`);
const body = readFileSync(file);
const db = openRaw(url);

const BASE_TABLES = {
  assets: [
    'id',
    'name',
    'ip',
    'type',
    'vendor',
    'model',
    'risk_score',
    'site',
    'os_version',
    'source',
    'origin',
    'first_seen_at',
    'last_seen_at',
    'created_at',
    'updated_at',
  ],
  // After assets: its rows name them; a finding's sources and periods after the finding.
  asset_sources: ['asset_id', 'source', 'position'],
  // What the service inserts (FINDING_INSERT_COLUMNS): the triage's columns stay NULL.
  findings: [
    'id',
    'asset_id',
    'vuln_id',
    'score',
    'severity',
    'summary',
    'published_date',
    'status',
    'first_seen_at',
    'last_seen_at',
    'fixed_at',
    'reopened_at',
    'reopen_count',
  ],
  finding_sources: ['finding_id', 'source', 'position'],
  // Still open: closed_at NULL; counted under its finding's severity.
  finding_periods: ['finding_id', 'opened_at', 'severity'],
  relations: [
    'id',
    'source_asset_id',
    'target_asset_id',
    'type',
    'direction',
    'protocol',
    'to_ports',
    'created_at',
    'updated_at',
  ],
};
const PG_TYPES = {
  risk_score: 'integer',
  score: 'double precision',
  position: 'integer',
  reopen_count: 'integer',
  published_date: 'date',
  first_seen_at: 'timestamptz',
  last_seen_at: 'timestamptz',
  fixed_at: 'timestamptz',
  reopened_at: 'timestamptz',
  opened_at: 'timestamptz',
  created_at: 'timestamptz',
  updated_at: 'timestamptz',
};
const IDENTITY_COLUMNS = ['addresses', 'mac_addresses', 'hostnames'];
/** The tables written, in order: the identity lists' columns and rows with the assets'. */
const TABLES = (() => {
  const { assets, ...rest } = BASE_TABLES;
  const [assetSources, ...others] = Object.entries(rest);
  return {
    assets: [...assets, ...IDENTITY_COLUMNS],
    [assetSources[0]]: assetSources[1],
    asset_identifiers: ['asset_id', 'kind', 'value'],
    ...Object.fromEntries(others),
  };
})();

const ROWS_PER_STATEMENT = { raw: 1, bulk: 100, repeat: 1 };
/** Rows (or ids) a PostgreSQL statement takes at a time: one array parameter per column. */
const PG_ROWS_PER_STATEMENT = 10_000;

const now = db.kind === 'postgres' ? new Date().toISOString() : db.timestamp(new Date());

/** New open findings of `assetId` (its listed `vulnerabilities`), with their sources and periods. */
function openedFindings(assetId, vulnerabilities, source, rows) {
  for (const v of vulnerabilities) {
    const id = timeOrderedId();
    rows.findings.push([
      id,
      assetId,
      v.id,
      v.score,
      severityOf(v.score),
      v.summary,
      v.publishedDate,
      'open',
      now,
      now,
      null,
      null,
      0,
    ]);
    rows.finding_sources.push([id, source, 0]);
    rows.finding_periods.push([id, now, severityOf(v.score)]);
  }
}

function sourceOf(payload) {
  const { source } = payload.options;
  if (!source) throw new Error('the payload names no options.source');
  return source;
}

function rowsOf(payload) {
  const source = sourceOf(payload);
  const findings = { findings: [], finding_sources: [], finding_periods: [] };
  for (const a of payload.assets) openedFindings(a.id, a.vulnerabilities ?? [], source, findings);
  const lists = (a) => [
    a.addresses ?? (a.ip ? [a.ip] : []),
    a.macAddresses ?? [],
    a.hostnames ?? [],
  ];
  const identifiers = [];
  for (const a of payload.assets) {
    const [addresses, macs, hosts] = lists(a);
    for (const address of addresses) identifiers.push([a.id, 'ip', addressKey(address)]);
    for (const mac of macs) identifiers.push([a.id, 'mac', mac]);
    for (const host of hosts) identifiers.push([a.id, 'host', host]);
  }
  return {
    asset_identifiers: identifiers,
    assets: payload.assets.map((a) => [
      a.id,
      a.name,
      a.ip,
      a.type,
      a.vendor,
      a.model,
      a.risk_score,
      a.site,
      a.os_version,
      source,
      'ingest',
      now,
      now,
      now,
      now,
      ...lists(a).map((list) => list.join(' ')),
    ]),
    asset_sources: payload.assets.map((a) => [a.id, source, 0]),
    ...findings,
    relations: payload.relations.map((r, i) => [
      `rel-${i}`,
      r.sourceAssetId,
      r.targetAssetId,
      r.type,
      'bi',
      r.protocol,
      r.toPorts,
      now,
      now,
    ]),
  };
}

/** better-sqlite3: `per` rows a prepared statement, the rest by a statement of their own. */
function sqliteInsert(table, rows) {
  const columns = TABLES[table];
  const per = ROWS_PER_STATEMENT[way];
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  const statement = (n) =>
    db.prepare(
      `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${Array(n).fill(tuple).join(', ')}`,
    );
  const full = statement(per);
  if (per === 1) {
    for (const row of rows) full.run(...row);
    return;
  }
  const whole = rows.length - (rows.length % per);
  for (let i = 0; i < whole; i += per) full.run(...rows.slice(i, i + per).flat());
  if (whole < rows.length) statement(rows.length - whole).run(...rows.slice(whole).flat());
}

async function sqlite(rows) {
  await db.exec('BEGIN IMMEDIATE');
  const indexes =
    way === 'bulk'
      ? await db.all(
          `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN (${Object.keys(
            TABLES,
          )
            .map(() => '?')
            .join(', ')})`,
          Object.keys(TABLES),
        )
      : [];
  for (const { name } of indexes) await db.exec(`DROP INDEX "${name}"`);
  for (const table of Object.keys(TABLES)) sqliteInsert(table, rows[table]);
  for (const { sql } of indexes) await db.exec(sql);
  await db.exec('COMMIT');
}

/** COPY's text format: tab-separated, `\N` for null, backslash escapes. */
const copyValue = (value) =>
  value === null || value === undefined
    ? '\\N'
    : String(value).replace(
        /[\\\t\n\r]/g,
        (c) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' })[c],
      );

async function* copyText(rows) {
  for (let i = 0; i < rows.length; i += 1000) {
    yield rows
      .slice(i, i + 1000)
      .map((row) => `${row.map(copyValue).join('\t')}\n`)
      .join('');
  }
}

/** pg: `rows` into `table`, by COPY (bulk) or one array parameter per column (raw, repeat). */
async function postgresInsert(client, table, rows) {
  const columns = TABLES[table];
  if (way === 'bulk') {
    const copy = client.query(copyFrom(`COPY ${table} (${columns.join(', ')}) FROM STDIN`));
    await pipeline(Readable.from(copyText(rows)), copy);
    return;
  }
  const types = columns.map((column) => PG_TYPES[column] ?? 'text');
  const sql = `INSERT INTO ${table} (${columns.join(', ')}) SELECT * FROM unnest(${types.map((type, i) => `$${i + 1}::${type}[]`).join(', ')})`;
  for (let i = 0; i < rows.length; i += PG_ROWS_PER_STATEMENT) {
    const part = rows.slice(i, i + PG_ROWS_PER_STATEMENT);
    await client.query(
      sql,
      columns.map((_c, index) => part.map((row) => row[index])),
    );
  }
}

/** `work(client)` in one transaction on one connection. */
async function postgresTransaction(work) {
  const client = await db.pool.connect();
  try {
    await client.query('BEGIN');
    await work(client);
    await client.query('COMMIT');
  } finally {
    client.release();
  }
}

const postgres = (rows) =>
  postgresTransaction(async (client) => {
    for (const table of Object.keys(TABLES)) await postgresInsert(client, table, rows[table]);
  });

/**
 * The repeated run's writes, given the stored findings of each of the payload's assets
 * (`stored`: asset id to rows of id, vuln_id and status): the findings seen again and those
 * fixed, the findings opened (rows as `raw` writes them), the assets whose list changed and
 * the others.
 */
function repeatPlan(payload, stored) {
  const source = sourceOf(payload);
  const plan = {
    seen: [],
    fixed: [],
    opened: { findings: [], finding_sources: [], finding_periods: [] },
    changedAssets: [],
    unchangedAssets: [],
  };
  for (const a of payload.assets) {
    const unlisted = new Map((stored.get(a.id) ?? []).map((f) => [f.vuln_id, f]));
    const unstored = [];
    for (const v of a.vulnerabilities) {
      const finding = unlisted.get(v.id);
      if (!finding) unstored.push(v);
      else if (finding.status === 'fixed') throw new Error(`${a.id} lists ${v.id} again`);
      else {
        plan.seen.push(finding.id);
        unlisted.delete(v.id);
      }
    }
    openedFindings(a.id, unstored, source, plan.opened);
    const fixed = [...unlisted.values()].filter((f) => ['open', 'accepted'].includes(f.status));
    for (const f of fixed) plan.fixed.push(f.id);
    const changed = unstored.length > 0 || fixed.length > 0;
    (changed ? plan.changedAssets : plan.unchangedAssets).push(a.id);
  }
  return plan;
}

/** The repeated run's updates: each a statement ending in its id column, the ids, the values before them. */
function repeatUpdates(plan, source) {
  return [
    ['UPDATE findings SET last_seen_at = ? WHERE id', plan.seen, [now]],
    [
      "UPDATE findings SET status = 'fixed', fixed_at = ?, accepted_until = NULL WHERE id",
      plan.fixed,
      [now],
    ],
    [
      'UPDATE finding_periods SET closed_at = ? WHERE closed_at IS NULL AND finding_id',
      plan.fixed,
      [now],
    ],
    ['DELETE FROM finding_sources WHERE source = ? AND finding_id', plan.fixed, [source]],
    ['UPDATE assets SET last_seen_at = ? WHERE id', plan.unchangedAssets, [now]],
    ['UPDATE assets SET last_seen_at = ?, updated_at = ? WHERE id', plan.changedAssets, [now, now]],
  ];
}

/** better-sqlite3: each asset's findings read, then one prepared statement run per row. */
async function sqliteRepeat(payload) {
  await db.exec('BEGIN IMMEDIATE');
  const read = db.prepare('SELECT id, vuln_id, status FROM findings WHERE asset_id = ?');
  const plan = repeatPlan(payload, new Map(payload.assets.map((a) => [a.id, read.all(a.id)])));
  for (const [sql, ids, values] of repeatUpdates(plan, sourceOf(payload))) {
    const statement = db.prepare(`${sql} = ?`);
    for (const id of ids) statement.run(...values, id);
  }
  for (const [table, rows] of Object.entries(plan.opened)) sqliteInsert(table, rows);
  await db.exec('COMMIT');
}

/** pg: the findings read and the updates made PG_ROWS_PER_STATEMENT assets or ids a statement. */
const postgresRepeat = (payload) =>
  postgresTransaction(async (client) => {
    const stored = new Map();
    for (let i = 0; i < payload.assets.length; i += PG_ROWS_PER_STATEMENT) {
      const ids = payload.assets.slice(i, i + PG_ROWS_PER_STATEMENT).map((a) => a.id);
      const { rows } = await client.query(
        'SELECT id, asset_id, vuln_id, status FROM findings WHERE asset_id = ANY($1::text[])',
        [ids],
      );
      for (const row of rows) {
        if (!stored.has(row.asset_id)) stored.set(row.asset_id, []);
        stored.get(row.asset_id).push(row);
      }
    }
    const plan = repeatPlan(payload, stored);
    for (const [sql, ids, values] of repeatUpdates(plan, sourceOf(payload))) {
      let n = 0;
      const numbered = `${sql.replace(/\?/g, () => `$${++n}`)} = ANY($${n + 1}::text[])`;
      for (let i = 0; i < ids.length; i += PG_ROWS_PER_STATEMENT)
        await client.query(numbered, [...values, ids.slice(i, i + PG_ROWS_PER_STATEMENT)]);
    }
    for (const [table, rows] of Object.entries(plan.opened))
      await postgresInsert(client, table, rows);
  });

// The service's first ingestion leaves PostgreSQL's statistics refreshed (it runs ANALYZE): the
// store the repeated run starts from is analyzed alike, before the clock starts.
if (way === 'repeat' && db.kind === 'postgres') await db.exec(`ANALYZE ${Object.keys(TABLES)}`);
const started = performance.now();
const payload = JSON.parse(body.toString());
if (way === 'repeat')
  await (db.kind === 'postgres' ? postgresRepeat(payload) : sqliteRepeat(payload));
else await (db.kind === 'postgres' ? postgres(rowsOf(payload)) : sqlite(rowsOf(payload)));
console.log(Math.round(performance.now() - started));
await db.close();
