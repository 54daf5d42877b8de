// Baseline of the export figure: a bare Node.js HTTP server writing the assets' CSV as
// GET /api/assets/export writes it (the same bytes), read through the raw driver as the service
// reads it: keyset batches of the same size in the (created_at, id) order, each batch's services
// and sources by one statement each, the CSV quoted by hand, each batch written once the one
// before has gone out. Usage: node bench/baseline-export.mjs <database url>; sends its port to
// the parent process once listening.
import { createServer } from 'node:http';
import { once } from 'node:events';
import { openRaw } from './lib.mjs';

const BATCH = 1000;
const [url] = process.argv.slice(2);
const db = openRaw(url);
const postgres = db.kind === 'postgres';

// The header row as the built service names its columns (bench/run.mjs builds it first); the
// cells below are written in that order.
const HEADER = (await import('../dist/assets/asset-csv-columns.js')).ASSET_CSV_COLUMNS.map(
  (column) => column.name,
);
// Formula quoting and RFC 4180 quoting, as the service writes cells.
const FORMULA = /^'*[=+\-@\t\r]/;
const QUOTED = /[",\r\n]/;

function cell(value) {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && FORMULA.test(text)) text = `'${text}`;
  return QUOTED.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A stored timestamp (SQLite's text in UTC, or PostgreSQL's Date) as ISO 8601. */
function iso(value) {
  if (value === null) return null;
  if (typeof value === 'string') return `${value.slice(0, 10)}T${value.slice(11)}Z`;
  return value.toISOString();
}

const ids = (count) => (postgres ? '= ANY($1)' : `IN (${new Array(count).fill('?').join(', ')})`);
const idParams = (list) => (postgres ? [list] : list);
const page = (after) =>
  after
    ? `SELECT * FROM assets WHERE (created_at, id) > (${postgres ? '$1, $2' : '?, ?'}) ORDER BY created_at ASC, id ASC LIMIT ${BATCH}`
    : `SELECT * FROM assets ORDER BY created_at ASC, id ASC LIMIT ${BATCH}`;
const query = async (sql, params) =>
  postgres ? (await db.pool.query(sql, params)).rows : db.prepare(sql).all(...params);

/** A batch's rows, their services and sources grouped by asset. */
async function batch(after) {
  const rows = await query(page(after), after ? [after.key, after.id] : []);
  if (rows.length === 0) return { rows };
  const list = rows.map((row) => row.id);
  const [services, sources] = await Promise.all([
    query(
      `SELECT asset_id, port, protocol, name FROM services WHERE asset_id ${ids(list.length)} ORDER BY asset_id, port, protocol`,
      idParams(list),
    ),
    query(
      `SELECT asset_id, source FROM asset_sources WHERE asset_id ${ids(list.length)} ORDER BY asset_id, position`,
      idParams(list),
    ),
  ]);
  const grouped = (entries, text) => {
    const byAsset = new Map();
    for (const entry of entries) {
      const value = text(entry);
      const values = byAsset.get(entry.asset_id);
      if (values) values.push(value);
      else byAsset.set(entry.asset_id, [value]);
    }
    return byAsset;
  };
  return {
    rows,
    services: grouped(services, (s) =>
      s.name === null ? `${s.port}/${s.protocol}` : `${s.port}/${s.protocol}/${s.name}`,
    ),
    sources: grouped(sources, (s) => s.source),
  };
}

function csv({ rows, services, sources }) {
  let text = '';
  for (const row of rows) {
    text += `${[
      row.id,
      row.name,
      row.ip,
      row.type,
      row.vendor,
      row.model,
      row.risk_score,
      row.site,
      row.os_version,
      // The lists a row holds as text, values separated by spaces, as the CSV writes them.
      row.addresses,
      row.mac_addresses,
      row.hostnames,
      row.tags,
      (services.get(row.id) ?? []).join(' '),
      (sources.get(row.id) ?? []).join(' '),
      row.origin,
      iso(row.first_seen_at),
      iso(row.last_seen_at),
      iso(row.created_at),
      iso(row.updated_at),
    ]
      .map(cell)
      .join(',')}\r\n`;
  }
  return text;
}

const server = createServer(async (request, response) => {
  response.writeHead(200, {
    'content-type': 'text/csv; charset=utf-8',
    'content-disposition': 'attachment; filename="assets.csv"',
  });
  response.write(`${HEADER.join(',')}\r\n`);
  let after;
  for (;;) {
    const read = await batch(after);
    if (read.rows.length === 0) break;
    // Asked after the read: the buffer may have drained while the database answered.
    if (response.writableNeedDrain) await once(response, 'drain');
    response.write(csv(read));
    const last = read.rows[read.rows.length - 1];
    after = { key: last.created_at, id: last.id };
    if (read.rows.length < BATCH) break;
  }
  response.end();
});
server.listen(0, '127.0.0.1', () => process.send?.({ port: server.address().port }));
