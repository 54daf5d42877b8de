// Shared by the benchmark's processes: database access through the raw drivers.
import Database from 'better-sqlite3';
import { Buffer } from 'node:buffer';
import pg from 'pg';

/** `sqlite:<file>` or a postgres:// URL, as DATABASE_URL takes. */
export function openRaw(url) {
  if (url.startsWith('sqlite:')) {
    const db = new Database(url.slice('sqlite:'.length), { timeout: 10_000 });
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    return {
      kind: 'sqlite',
      all: async (sql, params = []) => db.prepare(sql).all(...params),
      run: async (sql, params = []) => db.prepare(sql).run(...params),
      exec: async (sql) => db.exec(sql),
      prepare: (sql) => db.prepare(sql),
      timestamp: (date) => date.toISOString().replace('T', ' ').replace('Z', ''),
      close: async () => db.close(),
    };
  }
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  let n = 0;
  const numbered = (sql) => ((n = 0), sql.replace(/\?/g, () => `$${++n}`));
  return {
    kind: 'postgres',
    all: async (sql, params = []) => (await pool.query(numbered(sql), params)).rows,
    run: async (sql, params = []) => pool.query(numbered(sql), params),
    exec: async (sql) => pool.query(sql),
    timestamp: (date) => date,
    close: async () => pool.end(),
    pool,
  };
}

/** The SQL of GET /api/assets, as the service runs it: count, page, vulnerabilities, services, sources. */
export async function listAssets(db, { limit = 100, offset = 0, search } = {}) {
  const columns = ['name', 'ip', 'vendor', 'model', 'site', 'type', 'os_version'];
  const where = search
    ? `WHERE (${columns.map((c) => `LOWER(${c}) LIKE ? ESCAPE '\\'`).join(' OR ')})`
    : '';
  const params = search ? columns.map(() => `%${search.toLowerCase()}%`) : [];
  const [{ n }] = await db.all(`SELECT COUNT(*) AS n FROM assets ${where}`, params);
  const rows = await db.all(
    `SELECT * FROM assets ${where} ORDER BY created_at ASC NULLS LAST, id ASC LIMIT ? OFFSET ?`,
    [...params, limit, offset],
  );
  /** The page's assets' rows of `sql` (its `?` the ids), grouped by asset_id through `map`. */
  const byAsset = async (sql, map) => {
    const grouped = new Map();
    if (!rows.length) return grouped;
    const ids = rows.map((row) => row.id);
    for (const row of await db.all(sql.replace('?', ids.map(() => '?').join(', ')), ids)) {
      if (!grouped.has(row.asset_id)) grouped.set(row.asset_id, []);
      grouped.get(row.asset_id).push(map(row));
    }
    return grouped;
  };
  const vulnerabilities = await byAsset(
    'SELECT asset_id, id, score, summary, CAST(published_date AS TEXT) AS published_date FROM vulnerabilities WHERE asset_id IN (?) ORDER BY asset_id, id',
    (v) => ({ id: v.id, score: v.score, summary: v.summary, publishedDate: v.published_date }),
  );
  const services = await byAsset(
    'SELECT asset_id, port, protocol, name, product, version FROM services WHERE asset_id IN (?) ORDER BY asset_id, port, protocol',
    (s) => ({
      port: s.port,
      protocol: s.protocol,
      name: s.name,
      product: s.product,
      version: s.version,
    }),
  );
  const sources = await byAsset(
    'SELECT asset_id, source FROM asset_sources WHERE asset_id IN (?) ORDER BY asset_id, position',
    (s) => s.source,
  );
  const iso = (value) =>
    value === null
      ? null
      : new Date(typeof value === 'string' ? `${value.replace(' ', 'T')}Z` : value).toISOString();
  return {
    assets: rows.map((row) => ({
      id: row.id,
      name: row.name,
      ip: row.ip,
      type: row.type,
      vendor: row.vendor,
      model: row.model,
      risk_score: row.risk_score,
      site: row.site,
      os_version: row.os_version,
      source: row.source,
      vulnerabilities: vulnerabilities.get(row.id) ?? [],
      services: services.get(row.id) ?? [],
      origin: row.origin,
      sources: sources.get(row.id) ?? [],
      firstSeenAt: iso(row.first_seen_at),
      lastSeenAt: iso(row.last_seen_at),
      createdAt: iso(row.created_at),
      updatedAt: iso(row.updated_at),
    })),
    total: Number(n),
  };
}

/** The benchmark's scanner payload: `count` assets with two vulnerabilities, `count` relations. */
export function makePayload(count) {
  const assets = [];
  const relations = [];
  for (let i = 0; i < count; i++) {
    assets.push({
      id: `host-${i}`,
      name: `host ${i}`,
      ip: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
      type: i % 3 === 0 ? 'switch' : 'server',
      vendor: ['Cisco', 'Dell', 'HPE', 'Juniper'][i % 4],
      model: `M-${i % 50}`,
      risk_score: i % 101,
      site: `site-${i % 20}`,
      os_version: `os ${i % 7}`,
      vulnerabilities: [
        { id: 'CVE-2024-0001', score: 7.5, summary: 'first finding', publishedDate: '2024-01-02' },
        {
          id: `CVE-2024-${String(i % 9000).padStart(4, '0')}-b`,
          score: 3.1,
          summary: 'second finding',
          publishedDate: '2024-03-04',
        },
      ],
    });
    relations.push({
      sourceAssetId: `host-${i}`,
      targetAssetId: `host-${(i + 1) % count}`,
      type: 'link',
      protocol: 'tcp',
      toPorts: '443',
    });
  }
  return { options: { mode: 'merge', source: 'bench' }, assets, relations };
}

/**
 * A payload's bytes with `extra` added to its options, the rest of the body left as it is: the
 * payloads of makePayload start with their options, a flat object.
 */
export function withOptions(body, extra) {
  const head = '{"options":';
  const end = body.indexOf('}') + 1;
  if (!body.subarray(0, head.length).equals(Buffer.from(head)) || end === 0)
    throw new Error('the body does not start with its options');
  const options = JSON.parse(body.subarray(head.length, end).toString());
  return Buffer.concat([
    Buffer.from(`${head}${JSON.stringify({ ...options, ...extra })}`),
    body.subarray(end),
  ]);
}
