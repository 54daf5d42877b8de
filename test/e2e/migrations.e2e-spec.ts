import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { loadConfig } from '../../src/config/app-config.js';
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
const PROVENANCE = MIGRATIONS.findIndex((migration) => migration.name.startsWith('Provenance'));

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
 * A store made by the migrations before Provenance and filled as the previous release left it,
 * then served by the current service, which applies the rest.
 */
describe('the Provenance migration on a stored inventory', () => {
  let database: TestDatabase;
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    expect(PROVENANCE).toBeGreaterThan(0);
    // A file on SQLite: the store must outlive the first connection.
    database = await createTestDatabase({ file: true });
    const config = loadConfig({ DATABASE_URL: database.url, ADMIN_PASSWORD });
    const previous = new AppDataSource({
      ...databaseOptions(config.database),
      migrations: MIGRATIONS.slice(0, PROVENANCE),
    });
    await previous.initialize();
    try {
      await previous.migrate();
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
    } finally {
      await previous.destroy();
    }
    t = await TestApp.start({}, database);
    token = await t.login();
  });
  afterAll(async () => {
    await t?.close();
    await database?.drop();
  });

  const get = async (path: string) => {
    const response = await t.request('GET', path, { token });
    expect(response.status).toBe(200);
    return response.body as Record<string, any>;
  };

  it('leaves the schema up to date and as the entities describe it', async () => {
    expect(await t.dataSource.showMigrations()).toBe(false);
    const diff = await t.dataSource.driver.createSchemaBuilder().log();
    expect(diff.upQueries.map((query) => query.query)).toEqual([]);
  });

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

  it('keeps the foreign keys: deleting an asset still takes its sources, vulnerabilities and relations', async () => {
    const response = await t.request('DELETE', '/api/assets/fed-1', { token });
    expect(response.status).toBe(204);
    const count = async (table: string) =>
      Number(
        (
          await t.dataSource.query<{ n: string | number }[]>(`SELECT COUNT(*) AS n FROM ${table}`)
        )[0].n,
      );
    expect(await count('asset_sources')).toBe(1);
    expect(await count('vulnerabilities')).toBe(1);
    expect(await count('relations')).toBe(0);
  });
});
