import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { loadConfig } from '../../src/config/app-config.js';
import type { DataSource } from 'typeorm';
import { AppDataSource } from '../../src/database/app-data-source.js';
import { databaseOptions } from '../../src/database/database-options.js';
import { POSTGRES_MIGRATIONS } from '../../src/database/migrations/postgres/index.js';
import { SQLITE_MIGRATIONS } from '../../src/database/migrations/sqlite/index.js';
import { ADMIN_PASSWORD, TestApp } from '../support/test-app.js';
import {
  createTestDatabase,
  testingPostgres,
  type TestDatabase,
} from '../support/test-database.js';

const postgres = testingPostgres();
const MIGRATIONS = postgres ? POSTGRES_MIGRATIONS : SQLITE_MIGRATIONS;

/** A stored timestamp as each database takes it in SQL, and as the API shows it. */
const stamp = (iso: string) => ({
  sql: postgres ? iso : iso.replace('T', ' ').replace('Z', ''),
  api: iso,
});
const FED_CREATED = stamp('2026-01-02T03:04:05.678Z');
const FED_UPDATED = stamp('2026-02-03T04:05:06.789Z');
const TYPED_CREATED = stamp('2026-03-04T05:06:07.890Z');
const OTHER_CREATED = stamp('2026-04-05T06:07:08.901Z');

/** Assets as the seed's schema stored them: two written by feeds, one typed in. */
const ASSETS = [
  {
    id: 'fed-1',
    name: 'web-1',
    ip: '10.0.0.1',
    type: 'server',
    vendor: 'Dell',
    model: 'R650',
    risk_score: 70,
    site: 'paris',
    os_version: 'Debian 12',
    source: 'nmap-dmz',
    created_at: FED_CREATED,
    updated_at: FED_UPDATED,
  },
  {
    id: 'typed-1',
    name: 'core-switch',
    ip: null,
    type: 'switch',
    vendor: 'Cisco',
    model: null,
    risk_score: null,
    site: 'lyon',
    os_version: null,
    source: null,
    created_at: TYPED_CREATED,
    updated_at: TYPED_CREATED,
  },
  {
    id: 'fed-2',
    name: 'db-1',
    ip: '10.0.0.2',
    type: null,
    vendor: null,
    model: null,
    risk_score: 5,
    site: null,
    os_version: null,
    source: 'nessus-weekly',
    created_at: OTHER_CREATED,
    updated_at: OTHER_CREATED,
  },
];

/** SQL text for a literal (the values are the test's own constants). */
const literal = (value: string | number | null) =>
  value === null ? 'NULL' : typeof value === 'number' ? String(value) : `'${value}'`;

/**
 * A store made by the migrations before `name` and filled by `fill` as the previous release left
 * it (a file on SQLite: the store must outlive that first connection), then served by the
 * current service, which applies the rest.
 */
async function storeBefore(
  name: string,
  fill: (previous: AppDataSource) => Promise<void>,
): Promise<{ database: TestDatabase; t: TestApp; token: string }> {
  const index = MIGRATIONS.findIndex((migration) => migration.name.startsWith(name));
  expect(index).toBeGreaterThan(0);
  const database = await createTestDatabase({ file: true });
  const config = loadConfig({ DATABASE_URL: database.url, ADMIN_PASSWORD });
  const previous = new AppDataSource({
    ...databaseOptions(config.database),
    migrations: MIGRATIONS.slice(0, index),
  });
  await previous.initialize();
  try {
    await previous.migrate();
    // The previous release's rows, written as it wrote them.
    await previous.asWriter(() => fill(previous));
  } finally {
    await previous.destroy();
  }
  const t = await TestApp.start({}, database);
  return { database, t, token: await t.login() };
}

/** The schema the migrations left: none pending, and nothing the entities would change. */
async function expectSchemaAsEntities(t: TestApp): Promise<void> {
  expect(await t.dataSource.showMigrations()).toBe(false);
  const diff = await t.dataSource.driver.createSchemaBuilder().log();
  expect(diff.upQueries.map((query) => query.query)).toEqual([]);
}

/** `GET path` as `token`, answered 200: its body. */
async function getOk(t: TestApp, token: string, path: string): Promise<Record<string, any>> {
  const response = await t.request('GET', path, { token });
  expect(response.status).toBe(200);
  return response.body as Record<string, any>;
}

/** The assets of the seed's schema carried over to origins, sources and sightings. */
describe('the Provenance migration on a stored inventory', () => {
  let database: TestDatabase;
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    ({ database, t, token } = await storeBefore('Provenance', async (previous) => {
      for (const asset of ASSETS) {
        const row = {
          ...asset,
          created_at: asset.created_at.sql,
          updated_at: asset.updated_at.sql,
        };
        const values = Object.values(row).map(literal);
        await previous.query(
          `INSERT INTO assets (${Object.keys(row).join(', ')}) VALUES (${values.join(', ')})`,
        );
      }
      await previous.query(
        `INSERT INTO vulnerabilities (asset_id, id, score, summary, published_date)
         VALUES ('fed-1', 'CVE-2024-3400', 10, 'PAN-OS RCE', '2024-04-12'),
                ('typed-1', 'CVE-2023-20198', 7.5, NULL, NULL)`,
      );
      await previous.query(
        `INSERT INTO relations (id, source_asset_id, target_asset_id, type, direction, protocol,
           to_ports, created_at, updated_at)
         VALUES ('rel-1', 'fed-1', 'typed-1', 'uplink', 'mono', 'tcp', '443,8000-8080',
           ${literal(FED_CREATED.sql)}, ${literal(FED_UPDATED.sql)})`,
      );
    }));
  });
  afterAll(async () => {
    await t?.close();
    await database?.drop();
  });

  const get = (path: string) => getOk(t, token, path);

  it('leaves the schema up to date and as the entities describe it', () =>
    expectSchemaAsEntities(t));

  it('makes an asset a feed wrote an ingested one, its feed its source, seen from its creation to its last update', async () => {
    const fed = await get('/api/assets/fed-1');
    expect(fed).toMatchObject({
      origin: 'ingest',
      source: 'nmap-dmz',
      sources: ['nmap-dmz'],
      firstSeenAt: FED_CREATED.api,
      lastSeenAt: FED_UPDATED.api,
      createdAt: FED_CREATED.api,
      updatedAt: FED_UPDATED.api,
    });
    expect(await get('/api/assets/fed-2')).toMatchObject({
      origin: 'ingest',
      sources: ['nessus-weekly'],
      firstSeenAt: OTHER_CREATED.api,
      lastSeenAt: OTHER_CREATED.api,
    });
    const rows = await t.dataSource.query<{ asset_id: string; source: string; position: number }[]>(
      'SELECT asset_id, source, position FROM asset_sources ORDER BY asset_id',
    );
    expect(rows).toEqual([
      { asset_id: 'fed-1', source: 'nmap-dmz', position: 0 },
      { asset_id: 'fed-2', source: 'nessus-weekly', position: 0 },
    ]);
  });

  it('makes an asset no feed wrote a manual one, without sources or sightings', async () => {
    expect(await get('/api/assets/typed-1')).toMatchObject({
      origin: 'manual',
      source: null,
      sources: [],
      firstSeenAt: null,
      lastSeenAt: null,
      createdAt: TYPED_CREATED.api,
      updatedAt: TYPED_CREATED.api,
    });
  });

  it('keeps every field of every asset, their vulnerabilities and their relations', async () => {
    const { assets, total } = await get('/api/assets');
    expect(total).toBe(ASSETS.length);
    expect(assets.map((asset: Record<string, any>) => asset.id)).toEqual(
      ASSETS.map((asset) => asset.id),
    );
    for (const [index, stored] of ASSETS.entries()) {
      const { created_at, updated_at, ...fields } = stored;
      expect(assets[index]).toMatchObject({
        ...fields,
        createdAt: created_at.api,
        updatedAt: updated_at.api,
      });
    }
    expect(assets[0].vulnerabilities).toEqual([
      { id: 'CVE-2024-3400', score: 10, summary: 'PAN-OS RCE', publishedDate: '2024-04-12' },
    ]);
    expect(assets[1].vulnerabilities).toEqual([
      { id: 'CVE-2023-20198', score: 7.5, summary: null, publishedDate: null },
    ]);
    // Services came later: a carried-over asset has none.
    for (const asset of assets) expect(asset.services).toEqual([]);
    expect(await get('/api/relations/rel-1')).toMatchObject({
      id: 'rel-1',
      sourceAssetId: 'fed-1',
      targetAssetId: 'typed-1',
      type: 'uplink',
      direction: 'mono',
      protocol: 'tcp',
      toPorts: '443,8000-8080',
    });
  });

  it('finds the carried-over assets by their feed', async () => {
    const { assets, total } = await get('/api/assets?source=nmap-dmz');
    expect(total).toBe(1);
    expect(assets.map((asset: Record<string, any>) => asset.id)).toEqual(['fed-1']);
  });

  it('turns the vulnerabilities into open findings, seen when the asset was, reported by its feeds', async () => {
    const rows = await t.dataSource.query<Record<string, unknown>[]>(
      `SELECT f.id, f.asset_id, f.vuln_id, f.severity, f.status, f.reopen_count,
         (SELECT COUNT(*) FROM finding_periods p WHERE p.finding_id = f.id AND p.closed_at IS NULL) AS periods
       FROM findings f ORDER BY f.asset_id`,
    );
    expect(
      rows.map(({ id: _id, ...row }) => ({
        ...row,
        reopen_count: Number(row.reopen_count),
        periods: Number(row.periods),
      })),
    ).toEqual([
      {
        asset_id: 'fed-1',
        vuln_id: 'CVE-2024-3400',
        severity: 'critical',
        status: 'open',
        reopen_count: 0,
        periods: 1,
      },
      {
        asset_id: 'typed-1',
        vuln_id: 'CVE-2023-20198',
        severity: 'high',
        status: 'open',
        reopen_count: 0,
        periods: 1,
      },
    ]);
    const sources = await t.dataSource.query<{ source: string }[]>(
      `SELECT s.source FROM finding_sources s JOIN findings f ON f.id = s.finding_id WHERE f.asset_id = 'fed-1'`,
    );
    const fed = await get('/api/assets/fed-1');
    expect(sources.map((row) => row.source)).toEqual(fed.sources);
    // Through the API: first and last seen at the asset's last sighting, else its last update.
    for (const id of ['fed-1', 'typed-1']) {
      const asset = await get(`/api/assets/${id}`);
      const seen = asset.lastSeenAt ?? asset.updatedAt;
      expect(await get(`/api/assets/${id}/findings`)).toEqual([
        expect.objectContaining({
          assetId: id,
          status: 'open',
          sources: asset.sources,
          firstSeenAt: seen,
          lastSeenAt: seen,
          fixedAt: null,
          reopenedAt: null,
        }),
      ]);
    }
  });

  it('keeps the foreign keys: deleting an asset still takes its sources, findings and relations', async () => {
    const response = await t.request('DELETE', '/api/assets/fed-1', { token });
    expect(response.status).toBe(204);
    const count = async (table: string) =>
      Number(
        (
          await t.dataSource.query<{ n: string | number }[]>(`SELECT COUNT(*) AS n FROM ${table}`)
        )[0].n,
      );
    expect(await count('asset_sources')).toBe(1);
    expect(await count('findings')).toBe(1);
    expect(await count('relations')).toBe(0);
  });
});

/** Records as the previous release stored them: each with its actor, request and run. */
const RECORDS = [
  // Two records of one request, through an API key.
  [
    '0190a000-0000-7000-8000-000000000001',
    'user-a',
    'a@example.com',
    'key-a',
    'am_aaaa',
    'req-1',
    null,
  ],
  [
    '0190a000-0000-7000-8000-000000000002',
    'user-a',
    'a@example.com',
    'key-a',
    'am_aaaa',
    'req-1',
    null,
  ],
  // An ingestion run's two records.
  ['0190a000-0000-7000-8000-000000000003', 'user-b', 'b@example.com', null, null, 'req-2', 'run-1'],
  ['0190a000-0000-7000-8000-000000000004', 'user-b', 'b@example.com', null, null, 'req-2', 'run-1'],
  // Another request of the first user, without a key.
  ['0190a000-0000-7000-8000-000000000005', 'user-a', 'a@example.com', null, null, 'req-3', null],
] as const;
// Yesterday: well within the 90 days the service keeps (it removes older records at start-up).
const RECORDED = stamp(new Date(Date.now() - 24 * 60 * 60 * 1000).toISOString());

describe('the ChangeSets migration on a stored history', () => {
  let database: TestDatabase;
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    ({ database, t, token } = await storeBefore('ChangeSets', async (previous) => {
      for (const [id, ...origin] of RECORDS) {
        await previous.query(
          `INSERT INTO changes (id, time, action, object_type, object_id, actor_user_id,
             actor_email, actor_api_key_id, actor_api_key_prefix, request_id, run_id, before, after)
           VALUES (${[id, RECORDED.sql, 'update', 'asset', 'a-1', ...origin].map(literal).join(', ')},
             '{"name":"before"}', '{"name":"after"}')`,
        );
      }
    }));
  });
  afterAll(async () => {
    await t?.close();
    await database?.drop();
  });

  const list = async (query: string) => {
    const response = await t.request('GET', `/api/changes?${query}`, { token });
    expect(response.status).toBe(200);
    return (response.body as Record<string, any>[]).map((change) => change.id as string);
  };

  it('leaves the schema up to date and as the entities describe it', () =>
    expectSchemaAsEntities(t));

  it('keeps every record with its actor, request and run, one change set a write', async () => {
    const response = await t.request('GET', '/api/changes?objectId=a-1', { token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(
      [...RECORDS]
        .reverse()
        .map(([id, userId, email, apiKeyId, apiKeyPrefix, requestId, runId]) => ({
          id,
          time: RECORDED.api,
          action: 'update',
          objectType: 'asset',
          objectId: 'a-1',
          actor: { userId, email, apiKeyId, apiKeyPrefix },
          requestId,
          runId,
          before: { name: 'before' },
          after: { name: 'after' },
        })),
    );
    const [{ sets }] = await t.dataSource.query<{ sets: string | number }[]>(
      'SELECT COUNT(*) AS sets FROM change_sets',
    );
    expect(Number(sets)).toBe(3);
  });

  it('finds the carried-over records by their actor and by their run', async () => {
    expect(await list('actorId=user-a')).toEqual([RECORDS[4][0], RECORDS[1][0], RECORDS[0][0]]);
    expect(await list('runId=run-1')).toEqual([RECORDS[3][0], RECORDS[2][0]]);
  });
});

/**
 * The access migrations undone (migration:revert) on a store the current release filled, then
 * done again: what the previous schema can hold is kept, keys and diagrams' owners included.
 */
describe('the ServiceAccountsScopedKeys and OidcSubject migrations undone and done again', () => {
  let database: TestDatabase;
  let t: TestApp;
  let token: string;
  let adminId: string;
  let diagramId: string;
  /** A key of the admin, as wide as its role: the previous release had only such keys. */
  let wideKey: string;
  let narrowKey: string;
  let serviceKey: string;
  let serviceId: string;

  const count = async (source: AppDataSource | DataSource, sql: string) =>
    Number((await source.query<{ n: string | number }[]>(sql))[0].n);

  beforeAll(async () => {
    database = await createTestDatabase({ file: true });
    t = await TestApp.start({}, database);
    token = await t.login();
    adminId = (await t.request('GET', '/api/auth/me', { token })).body.id;
    const key = async (path: string, body: Record<string, unknown>) => {
      const response = await t.request('POST', path, { token, body });
      expect(response.status).toBe(201);
      return response.body.key as string;
    };
    wideKey = await key('/api/auth/api-keys', { name: 'wide' });
    narrowKey = await key('/api/auth/api-keys', { name: 'narrow', scopes: ['read'] });
    const service = await t.request('POST', '/api/users', {
      token,
      body: { kind: 'service', name: 'ci', role: 'editor' },
    });
    serviceId = service.body.id;
    serviceKey = await key(`/api/users/${serviceId}/api-keys`, {
      name: 'ci',
      scopes: ['ingest'],
      sources: ['ci-feed'],
    });
    // The service account's writes: a run and a change set with no actor e-mail.
    const ingested = await t.request('POST', '/api/integrations/ingest', {
      token: serviceKey,
      body: { options: { source: 'ci-feed' }, assets: [{ id: 'ci-1', name: 'ci-host' }] },
    });
    expect(ingested.status).toBe(200);
    const diagram = await t.request('POST', '/api/diagrams', { token, body: { name: 'core' } });
    expect(diagram.status).toBe(201);
    diagramId = diagram.body.id;
    await t.close();

    const config = loadConfig({ DATABASE_URL: database.url, ADMIN_PASSWORD });
    const store = new AppDataSource({
      ...databaseOptions(config.database),
      migrations: MIGRATIONS,
    });
    await store.initialize();
    try {
      const undo =
        MIGRATIONS.length -
        MIGRATIONS.findIndex((m) => m.name.startsWith('ServiceAccountsScopedKeys'));
      for (let step = 0; step < undo; step++) await store.undoLastMigration();
      expect(await store.showMigrations()).toBe(true);
    } finally {
      await store.destroy();
    }
  });
  afterAll(async () => {
    await t?.close();
    await database?.drop();
  });

  describe('undone', () => {
    let store: AppDataSource;
    beforeAll(async () => {
      const config = loadConfig({ DATABASE_URL: database.url, ADMIN_PASSWORD });
      store = new AppDataSource({ ...databaseOptions(config.database), migrations: [] });
      await store.initialize();
    });
    afterAll(async () => {
      await store?.destroy();
    });

    it('keeps the keys as wide as their user, and each diagram its owner', async () => {
      const keys = await store.query<{ name: string; user_id: string }[]>(
        'SELECT name, user_id FROM api_keys ORDER BY name',
      );
      expect(keys).toEqual([{ name: 'wide', user_id: adminId }]);
      const [diagram] = await store.query<{ owner_id: string }[]>(
        `SELECT owner_id FROM diagrams WHERE id = '${diagramId}'`,
      );
      expect(diagram.owner_id).toBe(adminId);
    });

    it('drops what the previous schema cannot hold: the service account, and keys it would widen', async () => {
      expect(await count(store, `SELECT COUNT(*) AS n FROM users WHERE id = '${serviceId}'`)).toBe(
        0,
      );
      // Its history stays, under a name in place of the e-mail it never had.
      expect(
        await count(
          store,
          `SELECT COUNT(*) AS n FROM change_sets WHERE actor_user_id = '${serviceId}' AND actor_email = 'ci'`,
        ),
      ).toBeGreaterThan(0);
      expect(
        await count(
          store,
          `SELECT COUNT(*) AS n FROM ingestion_runs WHERE actor_user_id = '${serviceId}' AND actor_email = 'ci'`,
        ),
      ).toBe(1);
    });

    // SQLite's tables are made again by down(); PostgreSQL's are altered in place.
    (postgres ? it.skip : it)('leaves the foreign keys pointing at the users table', async () => {
      for (const table of ['api_keys', 'diagrams']) {
        const references = await store.query<{ table: string }[]>(
          `PRAGMA foreign_key_list("${table}")`,
        );
        expect(references.map((reference) => reference.table)).toEqual(['users']);
      }
      expect(await store.query('PRAGMA foreign_key_check')).toEqual([]);
    });
  });

  describe('done again', () => {
    beforeAll(async () => {
      t = await TestApp.start({}, database);
    });

    it('leaves the schema up to date and as the entities describe it', () =>
      expectSchemaAsEntities(t));

    it('takes the kept key, with every scope again; the dropped ones are refused', async () => {
      const me = await t.request('GET', '/api/auth/me', { token: wideKey });
      expect(me.status).toBe(200);
      expect(me.body.id).toBe(adminId);
      const keys = await t.request('GET', '/api/auth/api-keys', { token: wideKey });
      expect(keys.body).toEqual([
        expect.objectContaining({ name: 'wide', scopes: ['read', 'write', 'ingest', 'admin'] }),
      ]);
      for (const dropped of [narrowKey, serviceKey]) {
        expect((await t.request('GET', '/api/auth/me', { token: dropped })).status).toBe(401);
      }
      const diagram = await t.request('GET', `/api/diagrams/${diagramId}`, { token: wideKey });
      expect(diagram.body.ownerId).toBe(adminId);
    });
  });
});

/** Each asset's ip carried over to its addresses, and found by it. */
describe('the AssetIdentity migration on a stored inventory', () => {
  let database: TestDatabase;
  let t: TestApp;
  let token: string;
  const created = stamp('2026-05-06T07:08:09.012Z');

  beforeAll(async () => {
    ({ database, t, token } = await storeBefore('AssetIdentity', async (previous) => {
      const rows: [string, string | null][] = [
        ['v4', '10.9.0.1'],
        ['v6', '2001:DB8:0:0:0:0:0:1'],
        ['none', null],
      ];
      for (const [id, ip] of rows) {
        await previous.query(
          `INSERT INTO assets (id, name, ip, origin, created_at, updated_at)
           VALUES ('${id}', '${id}-name', ${literal(ip)}, 'manual', ${literal(created.sql)}, ${literal(created.sql)})`,
        );
      }
      await previous.query(
        `INSERT INTO services (asset_id, port, protocol) VALUES ('v4', 22, 'tcp')`,
      );
      await previous.query(
        `INSERT INTO relations (id, source_asset_id, target_asset_id, type, direction, created_at, updated_at)
         VALUES ('rel-v', 'v4', 'v6', 'uplink', 'bi', ${literal(created.sql)}, ${literal(created.sql)})`,
      );
    }));
  });
  afterAll(async () => {
    await t?.close();
    await database?.drop();
  });

  const get = (path: string) => getOk(t, token, path);

  it('leaves the schema up to date and as the entities describe it', () =>
    expectSchemaAsEntities(t));

  it('copies each ip into addresses (IPv6 in its short form), the other lists empty', async () => {
    expect(await get('/api/assets/v4')).toMatchObject({
      ip: '10.9.0.1',
      addresses: ['10.9.0.1'],
      macAddresses: [],
      hostnames: [],
      services: [{ port: 22, protocol: 'tcp' }],
    });
    expect(await get('/api/assets/v6')).toMatchObject({
      ip: '2001:db8::1',
      addresses: ['2001:db8::1'],
    });
    expect(await get('/api/assets/none')).toMatchObject({ ip: null, addresses: [] });
    expect((await get('/api/relations/rel-v')).sourceAssetId).toBe('v4');
  });

  it('keeps the counted total and the search, and indexes the addresses', async () => {
    expect((await get('/api/assets?limit=1')).total).toBe(3);
    expect((await get('/api/assets?search=v6-na')).assets.map((a: any) => a.id)).toEqual(['v6']);
    const rows = await t.dataSource.query<{ asset_id: string; value: string }[]>(
      "SELECT asset_id, value FROM asset_identifiers WHERE kind = 'ip' ORDER BY asset_id",
    );
    expect(rows).toEqual([
      { asset_id: 'v4', value: '40a090001' },
      { asset_id: 'v6', value: `620010db8${'0'.repeat(23)}1` },
    ]);
  });
});

describe('the AssetTags migration on a stored inventory', () => {
  let database: TestDatabase;
  let t: TestApp;
  let token: string;
  const created = stamp('2026-05-06T07:08:09.012Z');

  beforeAll(async () => {
    ({ database, t, token } = await storeBefore('AssetTags', async (previous) => {
      for (const id of ['edge', 'db']) {
        await previous.query(
          `INSERT INTO assets (id, name, origin, created_at, updated_at)
           VALUES ('${id}', '${id}-name', 'manual', ${literal(created.sql)}, ${literal(created.sql)})`,
        );
      }
      await previous.query(
        `INSERT INTO relations (id, source_asset_id, target_asset_id, type, direction, created_at, updated_at)
         VALUES ('rel-t', 'edge', 'db', 'uplink', 'bi', ${literal(created.sql)}, ${literal(created.sql)})`,
      );
    }));
  });
  afterAll(async () => {
    await t?.close();
    await database?.drop();
  });

  it('leaves the schema up to date and as the entities describe it', () =>
    expectSchemaAsEntities(t));

  it('gives every asset an empty tag list, its relations kept, and tags it afterwards', async () => {
    expect(await getOk(t, token, '/api/assets/edge')).toMatchObject({ tags: [] });
    expect((await getOk(t, token, '/api/relations/rel-t')).targetAssetId).toBe('db');
    const tagged = await t.request('PUT', '/api/assets/edge', {
      token,
      body: { tags: ['internet'] },
    });
    expect([tagged.status, tagged.body.tags]).toEqual([200, ['internet']]);
    const listed = await getOk(t, token, '/api/assets?tag=internet');
    expect(listed.assets.map((asset: any) => asset.id)).toEqual(['edge']);
  });
});
