// The ingestion baselines: JSON.parse of the same body, then the same rows written in one
// transaction into an empty database at the service's schema, foreign keys checked, as a first
// ingestion with a source writes them: assets of origin 'ingest', first and last seen now, each
// with one asset_sources row (the payload's source, position 0).
//   raw:  the raw driver's usual fast path (better-sqlite3: one prepared statement run per row;
//         pg: one array parameter per column, expanded by unnest, 10,000 rows a statement).
//   bulk: the strongest raw way known, the limit (SQLite: the secondary indexes dropped, rows
//         inserted 100 a statement, the indexes built again before the commit; PostgreSQL:
//         COPY FROM STDIN in text format through pg-copy-streams).
// Usage: node bench/baseline-ingest.mjs <raw|bulk> <database url> <payload file>; prints ms.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { from as copyFrom } from 'pg-copy-streams';
import { openRaw } from './lib.mjs';

const [way, url, file] = process.argv.slice(2);
if (!['raw', 'bulk'].includes(way)) throw new Error(`unknown way ${way}`);
const body = readFileSync(file);
const db = openRaw(url);

const TABLES = {
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
  // After assets: its rows name them.
  asset_sources: ['asset_id', 'source', 'position'],
  vulnerabilities: ['asset_id', 'id', 'score', 'summary', 'published_date'],
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
  published_date: 'date',
  first_seen_at: 'timestamptz',
  last_seen_at: 'timestamptz',
  created_at: 'timestamptz',
  updated_at: 'timestamptz',
};
const ROWS_PER_STATEMENT = { raw: 1, bulk: 100 };

function rowsOf(payload) {
  const now = db.kind === 'postgres' ? new Date().toISOString() : db.timestamp(new Date());
  const { source } = payload.options;
  if (!source) throw new Error('the payload names no options.source');
  return {
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
    ]),
    asset_sources: payload.assets.map((a) => [a.id, source, 0]),
    vulnerabilities: payload.assets.flatMap((a) =>
      a.vulnerabilities.map((v) => [a.id, v.id, v.score, v.summary, v.publishedDate]),
    ),
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

async function postgres(rows) {
  const client = await db.pool.connect();
  try {
    await client.query('BEGIN');
    for (const [table, columns] of Object.entries(TABLES)) {
      if (way === 'bulk') {
        const copy = client.query(copyFrom(`COPY ${table} (${columns.join(', ')}) FROM STDIN`));
        await pipeline(Readable.from(copyText(rows[table])), copy);
        continue;
      }
      const types = columns.map((column) => PG_TYPES[column] ?? 'text');
      const sql = `INSERT INTO ${table} (${columns.join(', ')}) SELECT * FROM unnest(${types.map((type, i) => `$${i + 1}::${type}[]`).join(', ')})`;
      for (let i = 0; i < rows[table].length; i += 10_000) {
        const part = rows[table].slice(i, i + 10_000);
        await client.query(
          sql,
          columns.map((_c, index) => part.map((row) => row[index])),
        );
      }
    }
    await client.query('COMMIT');
  } finally {
    client.release();
  }
}

const started = performance.now();
const rows = rowsOf(JSON.parse(body.toString()));
await (db.kind === 'postgres' ? postgres(rows) : sqlite(rows));
console.log(Math.round(performance.now() - started));
await db.close();
