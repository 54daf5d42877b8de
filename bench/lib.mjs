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
      /** `work` in one transaction, synchronously: nothing else runs on the connection meanwhile. */
      transaction: (work) => db.transaction(work)(),
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
  const term = search?.toLowerCase();
  const conditions = [];
  const params = [];
  if (term && db.kind === 'sqlite' && [...term].length >= 3) {
    // SQLite's trigram table of the lowered columns, for a term with trigrams: the matches found
    // once into a temporary table, then counted and probed (src/database/sqlite/sqlite-search-matches.ts).
    conditions.push('assets.rowid IN (SELECT r FROM temp.search_matches)');
    params.push(`"${term.replace(/"/g, '""')}"`);
  } else if (term) {
    // The service's own list of searched columns, from its build (which the bench makes first).
    const columns = (await import('../dist/database/tables/assets.table.js')).SEARCHED_COLUMNS;
    conditions.push(`(${columns.map((c) => `LOWER(${c}) LIKE ? ESCAPE '\\'`).join(' OR ')})`);
    params.push(...columns.map(() => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`));
  }
  const where = conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
  const indexed = where.includes('search_matches');
  // The unfiltered total is kept by triggers in asset_count; SQLite counts an indexed search
  // in its matches' table, with the assets in all beside it.
  const count = !where
    ? db.kind === 'sqlite'
      ? 'SELECT total AS n FROM asset_count'
      : 'SELECT COALESCE(SUM(delta), 0) AS n FROM asset_count'
    : indexed
      ? 'SELECT COUNT(*) AS n, (SELECT total FROM asset_count) AS assets FROM temp.search_matches'
      : `SELECT COUNT(*) AS n FROM assets ${where}`;
  // Dense matches: the page walks the (created_at, id) index, probing rowids in the matches'
  // table (the repository's walksSortIndex, src/database/repositories/assets/asset-search-plan.ts).
  const page = ({ n, assets }) =>
    `SELECT * FROM assets ${indexed && n > 0 && ((offset + limit + 1) * assets) / n <= 10 * n ? where.replace('assets.rowid', '+assets.rowid') : where} ORDER BY created_at ASC NULLS LAST, id ASC LIMIT ? OFFSET ?`;
  // One row more than the page, as the service reads, to know whether another follows.
  const pageParams = [...(indexed ? [] : params), limit + 1, offset];
  let counted;
  let rows;
  if (indexed) {
    ({ counted, rows } = sqliteMatches(db, params[0], () => {
      const [found] = db.prepare(count).all();
      return { counted: found, rows: db.prepare(page(found)).all(...pageParams) };
    }));
  } else {
    [counted] = await db.all(count, where ? params : []);
    rows = await db.all(page(counted), pageParams);
  }
  rows.length = Math.min(rows.length, limit);
  return { assets: await assetsAsAnswered(db, rows), total: Number(counted.n) };
}

/** The connections that have their temp.search_matches. */
const withMatchesTable = new WeakSet();

/**
 * `work` (synchronous statements) while temp.search_matches holds the rowids of the assets
 * matching `phrase`, in one transaction, as the service runs a search.
 */
function sqliteMatches(db, phrase, work) {
  if (!withMatchesTable.has(db)) {
    db.prepare('CREATE TEMP TABLE search_matches (r INTEGER PRIMARY KEY)').run();
    withMatchesTable.add(db);
  }
  return db.transaction(() => {
    db.prepare(
      'INSERT INTO temp.search_matches (r) SELECT rowid FROM assets_search WHERE assets_search MATCH ?',
    ).run(phrase);
    try {
      return work();
    } finally {
      db.prepare('DELETE FROM temp.search_matches').run();
    }
  });
}

/** Asset rows as the API answers them, with their vulnerabilities, services and sources. */
async function assetsAsAnswered(db, rows) {
  /** The rows' assets' rows of `sql` (its `?` the ids), grouped by asset_id through `map`. */
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
  // An asset's vulnerabilities are its open and accepted findings, read as the service reads them
  // (VULNERABILITIES_SELECT, src/database/repositories/assets/asset-selects.ts).
  const vulnerabilities = await byAsset(
    "SELECT * FROM (SELECT asset_id, vuln_id AS id, score, summary, CAST(published_date AS TEXT) AS published_date FROM findings WHERE status NOT IN ('fixed', 'false_positive')) v WHERE asset_id IN (?) ORDER BY asset_id, id",
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
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    ip: row.ip,
    type: row.type,
    vendor: row.vendor,
    model: row.model,
    risk_score: row.risk_score,
    site: row.site,
    os_version: row.os_version,
    addresses: spaced(row.addresses),
    macAddresses: spaced(row.mac_addresses),
    hostnames: spaced(row.hostnames),
    tags: spaced(row.tags),
    source: row.source,
    vulnerabilities: vulnerabilities.get(row.id) ?? [],
    services: services.get(row.id) ?? [],
    origin: row.origin,
    sources: sources.get(row.id) ?? [],
    firstSeenAt: iso(row.first_seen_at),
    lastSeenAt: iso(row.last_seen_at),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  }));
}

/** A list column's values (separated by spaces in the row). */
const spaced = (text) => (text ? text.split(' ') : []);

/** Relation rows as the API answers them. */
function relationsAsAnswered(rows) {
  return rows.map((row) => ({
    id: row.id,
    sourceAssetId: row.source_asset_id,
    targetAssetId: row.target_asset_id,
    type: row.type,
    direction: row.direction,
    protocol: row.protocol,
    toPorts: row.to_ports,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  }));
}

/** A stored timestamp (SQLite's text in UTC, or PostgreSQL's Date) as ISO 8601. */
function iso(value) {
  return value === null
    ? null
    : new Date(typeof value === 'string' ? `${value.replace(' ', 'T')}Z` : value).toISOString();
}

/** The rows of `table` with these ids, in the order given. */
async function rowsByIds(db, table, ids) {
  if (!ids.length) return [];
  const rows = await db.all(
    `SELECT * FROM ${table} WHERE id IN (${ids.map(() => '?').join(', ')})`,
    ids,
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/**
 * The graph routes as the service answers them, through the raw driver: the walk's SQL (`sql`:
 * the built service's dist/database/repositories/relations/graph-sql.js, `walks`: its dist/graph/graph-walks.js, with
 * `dialect`, its Dialect for the database), then the assets and relations it found, shaped as
 * the API answers them.
 */
export function graphQueries(db, sql, walks, dialect) {
  const postgres = db.kind === 'postgres';
  const prepared = new Map();
  // :named parameters: better-sqlite3 binds them as they are; pg takes $1, $2... (not ::casts).
  const run = async (text, parameters) => {
    if (!postgres) {
      if (!prepared.has(text)) prepared.set(text, db.prepare(text));
      return prepared.get(text).all(parameters);
    }
    const names = [];
    const numbered = text.replace(/(?<!:):(\w+)/g, (_match, name) => {
      if (!names.includes(name)) names.push(name);
      return `$${names.indexOf(name) + 1}`;
    });
    return (
      await db.pool.query(
        numbered,
        names.map((name) => parameters[name]),
      )
    ).rows;
  };
  const assets = async (ids) => assetsAsAnswered(db, await rowsByIds(db, 'assets', ids));
  const relations = async (ids) => relationsAsAnswered(await rowsByIds(db, 'relations', ids));
  return {
    async neighbourhood(start, depth) {
      const [reached, found] = await Promise.all([
        run(sql.neighbourhoodAssets(false), { start, depth }),
        run(sql.neighbourhoodRelations(false), { start, depth }),
      ]);
      const hops = walks.hopsById(reached);
      return {
        assets: await assets(walks.nearestFirst(hops)),
        relations: (await relations(found.map((row) => row.id))).sort((a, b) =>
          walks.oldestFirst(
            { id: a.id, createdAt: new Date(a.createdAt) },
            { id: b.id, createdAt: new Date(b.createdAt) },
          ),
        ),
      };
    },
    async path(from, to, maxDepth) {
      const [found] = await run(sql.PATH_LENGTH, { from, to, maxDepth });
      if (!found) return null;
      const steps = await run(sql.PATH_STEPS, { from, to, maxDepth: Number(found.hops) });
      const walk = walks.pickWalk(steps, from, to);
      return { assets: await assets(walk.assetIds), relations: await relations(walk.relationIds) };
    },
    async reachable(start, maxDepth, port) {
      const hops = walks.hopsById(
        await run(sql.reachableAssets(dialect, false), { start, maxDepth, port }),
      );
      hops.delete(start);
      return (await assets([...hops.keys()]))
        .map((asset) => ({ asset, hops: hops.get(asset.id) }))
        .sort(walks.compareReached);
    },
  };
}

/** The benchmark's asset number `i`, with its two vulnerabilities. */
export function benchAsset(i) {
  return {
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
  };
}

/** The benchmark's scanner payload: `count` assets with two vulnerabilities, `count` relations. */
export function makePayload(count) {
  const assets = [];
  const relations = [];
  for (let i = 0; i < count; i++) {
    assets.push(benchAsset(i));
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
