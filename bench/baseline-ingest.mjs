// Baseline for ingestion: JSON.parse of the same body, then the raw driver inserting the same
// rows in one transaction into a database at the service's schema.
// Usage: node bench/baseline-ingest.mjs <database url> <payload file>; prints milliseconds.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { openRaw } from './lib.mjs';

const [url, file] = process.argv.slice(2);
const body = readFileSync(file);
const db = openRaw(url);

const started = performance.now();
const payload = JSON.parse(body.toString());
const now = db.timestamp(new Date());
const assetRows = payload.assets.map((a) => [
  a.id,
  a.name,
  a.ip,
  a.type,
  a.vendor,
  a.model,
  a.risk_score,
  a.site,
  a.os_version,
  'bench',
  now,
  now,
]);
const vulnerabilityRows = payload.assets.flatMap((a) =>
  a.vulnerabilities.map((v) => [a.id, v.id, v.score, v.summary, v.publishedDate]),
);
const relationRows = payload.relations.map((r, i) => [
  `rel-${i}`,
  r.sourceAssetId,
  r.targetAssetId,
  r.type,
  'bi',
  r.protocol,
  r.toPorts,
  now,
  now,
]);

const TYPES = {
  risk_score: 'integer',
  score: 'double precision',
  published_date: 'date',
  created_at: 'timestamptz',
  updated_at: 'timestamptz',
};

async function insert(table, columns, rows) {
  if (db.kind === 'sqlite') {
    // better-sqlite3's own fast path: one prepared statement, run per row.
    const statement = db.prepare(
      `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
    );
    for (const row of rows) statement.run(...row);
    return;
  }
  if (db.kind === 'postgres') {
    // pg's fast path: one array parameter per column, expanded by unnest.
    const types = columns.map((column) => TYPES[column] ?? 'text');
    const sql = `INSERT INTO ${table} (${columns.join(', ')}) SELECT * FROM unnest(${types.map((type, i) => `$${i + 1}::${type}[]`).join(', ')})`;
    for (let i = 0; i < rows.length; i += 10_000) {
      const part = rows.slice(i, i + 10_000);
      await db.raw(
        sql,
        columns.map((_c, index) => part.map((row) => row[index])),
      );
    }
    return;
  }
  const per = Math.floor(30_000 / columns.length);
  const row = `(${columns.map(() => '?').join(', ')})`;
  for (let i = 0; i < rows.length; i += per) {
    const part = rows.slice(i, i + per);
    await db.run(
      `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${part.map(() => row).join(', ')}`,
      part.flat(),
    );
  }
}

if (db.kind === 'postgres') {
  const client = await db.pool.connect();
  const numbered = (sql) => {
    let n = 0;
    return sql.replace(/\?/g, () => `$${++n}`);
  };
  db.run = (sql, params) => client.query(numbered(sql), params);
  db.raw = (sql, params) => client.query(sql, params);
  await client.query('BEGIN');
  await runInserts();
  await client.query('COMMIT');
  client.release();
} else {
  await db.exec('BEGIN IMMEDIATE');
  await runInserts();
  await db.exec('COMMIT');
}

async function runInserts() {
  await insert(
    'assets',
    [
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
      'created_at',
      'updated_at',
    ],
    assetRows,
  );
  await insert(
    'vulnerabilities',
    ['asset_id', 'id', 'score', 'summary', 'published_date'],
    vulnerabilityRows,
  );
  await insert(
    'relations',
    [
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
    relationRows,
  );
}
console.log(Math.round(performance.now() - started));
await db.close();
