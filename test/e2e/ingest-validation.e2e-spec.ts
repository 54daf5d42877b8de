import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { isDeepStrictEqual } from 'node:util';
import { expectErrorBody, TestApp } from '../support/test-app.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

const INGEST = '/api/integrations/ingest';
const MiB = 1024 * 1024;
const STATS_KEYS = [
  'assetsCreated',
  'assetsDeleted',
  'assetsUnchanged',
  'assetsUpdated',
  'duration',
  'findingsFixed',
  'findingsOpened',
  'findingsReopened',
  'relationsCreated',
  'relationsDeleted',
  'relationsUnchanged',
  'relationsUpdated',
  'vulnerabilities',
];

/**
 * Row counts and contents of the three tables an ingestion writes, to prove nothing was; with
 * the rows' updated_at unless `times` is false.
 */
async function snapshot(t: TestApp, times = true) {
  const count = async (table: string) =>
    Number((await t.dataSource.query(`SELECT COUNT(*) AS count FROM ${table}`))[0].count);
  // The assets' vulnerabilities: their open and accepted findings.
  const updatedAt = times ? ', updated_at' : '';
  return {
    assets: await count('assets'),
    vulnerabilities: await count("findings WHERE status IN ('open', 'accepted')"),
    findings: await count('findings'),
    relations: await count('relations'),
    assetRows: await t.dataSource.query(
      `SELECT id, name, ip, vendor, source${updatedAt} FROM assets ORDER BY id`,
    ),
    vulnerabilityRows: await t.dataSource.query(
      `SELECT asset_id, vuln_id, score, summary, status${times ? ', last_seen_at' : ''} FROM findings ORDER BY asset_id, vuln_id`,
    ),
    relationRows: await t.dataSource.query(
      `SELECT source_asset_id, target_asset_id, type, direction${updatedAt} FROM relations ` +
        'ORDER BY source_asset_id, target_asset_id, type',
    ),
  };
}

async function assetCount(t: TestApp): Promise<number> {
  return (await snapshot(t)).assets;
}

// The store every validation test starts from (merged once in beforeAll).
const SEED = {
  assets: [
    {
      id: 'seed-a',
      name: 'seed a',
      ip: '10.9.0.1',
      vulnerabilities: [
        { id: 'CVE-2024-0001', score: 7.5, summary: 'old', publishedDate: '2024-01-02' },
      ],
    },
    { id: 'seed-b', name: 'seed b', ip: '10.9.0.2' },
    { id: 'seed-c', name: 'seed c' },
  ],
  relations: [{ sourceAssetId: 'seed-a', targetAssetId: 'seed-b', type: 'link' }],
};

// Valid items that, were they written, would change the store: an update of seed-a (dropping
// its vulnerability), a new asset, a new relation and an update of the stored one.
const GOOD_ASSETS = [
  { id: 'seed-a', name: 'seed a renamed', vulnerabilities: [] },
  { id: 'fresh-1', name: 'fresh one', ip: '10.8.0.1', vendor: 'Acme' },
];
const GOOD_RELATIONS = [
  { sourceAssetId: 'fresh-1', targetAssetId: 'seed-a', type: 'uplink' },
  { sourceAssetId: 'seed-a', targetAssetId: 'seed-b', type: 'link', direction: 'mono' },
];

/** The good items with a bad one at index 2 of 3. */
const withAsset = (bad: unknown) => ({
  assets: [...GOOD_ASSETS, bad],
  relations: GOOD_RELATIONS,
});
const withRelation = (bad: unknown) => ({
  assets: GOOD_ASSETS,
  relations: [...GOOD_RELATIONS, bad],
});
const withOptions = (options: unknown) => ({
  assets: GOOD_ASSETS,
  relations: GOOD_RELATIONS,
  options,
});
/** assets[2] with two good vulnerabilities and a bad one at index 2. */
const withVulnerability = (bad: unknown) =>
  withAsset({
    id: 'fresh-2',
    name: 'fresh two',
    vulnerabilities: [
      { id: 'CVE-2024-1000', score: 5, summary: 'fine', publishedDate: '2024-02-29' },
      { id: 'CVE-2024-1001' },
      bad,
    ],
  });
const relation = (extra: Record<string, unknown> = {}) => ({
  sourceAssetId: 'seed-b',
  targetAssetId: 'seed-c',
  type: 'link',
  ...extra,
});

const VULN = /^assets\[2\]\.vulnerabilities\[2\]/;

const INVALID: [string, unknown, RegExp][] = [
  // the body and its options
  ['a body that is an array', [GOOD_ASSETS[0]], /^the body must be a JSON object/],
  ['a body that is a string', 'assets', /^the body must be a JSON object/],
  ['a body that is null', null, /^the body must be a JSON object/],
  [
    'an unknown top-level key',
    { ...withOptions({ mode: 'merge' }), dryRun: true },
    /^dryRun is not an accepted property/,
  ],
  ['options that are not an object', withOptions('merge'), /^options must be an object/],
  ['options that are an array', withOptions(['merge']), /^options must be an object/],
  [
    'an unknown option',
    withOptions({ mode: 'merge', preview: true }),
    /^options\.preview is not an accepted property/,
  ],
  [
    'a dryRun that is not a boolean',
    withOptions({ dryRun: 'true' }),
    /^options\.dryRun must be a boolean/,
  ],
  [
    'a negative maxDeletions',
    withOptions({ maxDeletions: -1 }),
    /^options\.maxDeletions must be an integer/,
  ],
  [
    'a fractional maxDeletions',
    withOptions({ maxDeletions: 1.5 }),
    /^options\.maxDeletions must be an integer/,
  ],
  [
    'a maxDeletions that is a string',
    withOptions({ maxDeletions: '5' }),
    /^options\.maxDeletions must be an integer/,
  ],
  [
    'a matchBy of ip alone',
    withOptions({ matchBy: ['ip'] }),
    /^options\.matchBy must be a list of "id", "mac", "ip" and "hostname" holding "id", none twice$/,
  ],
  ['a matchBy with an unknown key', withOptions({ matchBy: ['id', 'name'] }), /^options\.matchBy /],
  ['a matchBy with a repeated key', withOptions({ matchBy: ['id', 'id'] }), /^options\.matchBy /],
  ['an empty matchBy', withOptions({ matchBy: [] }), /^options\.matchBy /],
  ['a matchBy that is a string', withOptions({ matchBy: 'id' }), /^options\.matchBy /],
  ['an unknown mode', withOptions({ mode: 'upsert' }), /^options\.mode /],
  ['a mode that is not a string', withOptions({ mode: 1 }), /^options\.mode /],
  [
    'a deleteStale that is not a boolean',
    withOptions({ deleteStale: 'yes' }),
    /^options\.deleteStale must be a boolean/,
  ],
  [
    'deleteStale with append',
    { assets: [{ name: 'x' }, { name: 'y' }], options: { mode: 'append', deleteStale: true } },
    /^options\.deleteStale /,
  ],
  ['a source over 100 characters', withOptions({ source: 's'.repeat(101) }), /^options\.source /],
  ['a source that is not a string', withOptions({ source: 7 }), /^options\.source /],
  ['assets that are not an array', { assets: { 0: GOOD_ASSETS[0] } }, /^assets must be an array/],
  [
    'relations that are not an array',
    { assets: GOOD_ASSETS, relations: 'seed-a->seed-b' },
    /^relations must be an array/,
  ],

  // asset items
  ['an asset that is a string', withAsset('router'), /^assets\[2\] must be an object/],
  ['an asset that is null', withAsset(null), /^assets\[2\] must be an object/],
  ['an asset that is an array', withAsset([]), /^assets\[2\] must be an object/],
  [
    'an unknown asset property',
    withAsset({ name: 'x', color: 'red' }),
    /^assets\[2\]\.color is not an accepted property/,
  ],
  ['an empty id', withAsset({ id: '', name: 'x' }), /^assets\[2\]\.id /],
  ['an id over 200 characters', withAsset({ id: 'i'.repeat(201), name: 'x' }), /^assets\[2\]\.id /],
  [
    'an id with a control character',
    withAsset({ id: 'bad\u0001id', name: 'x' }),
    /^assets\[2\]\.id must hold printable characters only/,
  ],
  ['an id that is not a string', withAsset({ id: 42, name: 'x' }), /^assets\[2\]\.id /],
  ['an empty name', withAsset({ name: '' }), /^assets\[2\]\.name /],
  ['a name over 255 characters', withAsset({ name: 'n'.repeat(256) }), /^assets\[2\]\.name /],
  ['a name that is not a string', withAsset({ name: 42 }), /^assets\[2\]\.name /],
  ['a null name', withAsset({ id: 'fresh-2', name: null }), /^assets\[2\]\.name /],
  ['a name with a NUL character', withAsset({ name: 'a\u0000b' }), /^assets\[2\]\.name /],
  [
    'an invalid ip',
    withAsset({ name: 'x', ip: '10.0.0.256' }),
    /^assets\[2\]\.ip must be an IP address/,
  ],
  [
    'an ip that is a host name',
    withAsset({ name: 'x', ip: 'router.local' }),
    /^assets\[2\]\.ip must be an IP address/,
  ],
  [
    // Node's isIP takes an IPv6 zone of any length; the ip column holds 45 characters.
    'an IPv6 address with a 60-character zone (longer than any stored ip)',
    withAsset({ name: 'x', ip: `fe80::1%${'z'.repeat(60)}` }),
    /^assets\[2\]\.ip /,
  ],
  [
    'an ip that is not a string',
    withAsset({ name: 'x', ip: 167772161 }),
    /^assets\[2\]\.ip must be an IP address/,
  ],
  [
    'a type over 64 characters',
    withAsset({ name: 'x', type: 't'.repeat(65) }),
    /^assets\[2\]\.type /,
  ],
  [
    'a vendor over 255 characters',
    withAsset({ name: 'x', vendor: 'v'.repeat(256) }),
    /^assets\[2\]\.vendor /,
  ],
  [
    'a model over 255 characters',
    withAsset({ name: 'x', model: 'm'.repeat(256) }),
    /^assets\[2\]\.model /,
  ],
  [
    'a site over 255 characters',
    withAsset({ name: 'x', site: 's'.repeat(256) }),
    /^assets\[2\]\.site /,
  ],
  [
    'an os_version over 255 characters',
    withAsset({ name: 'x', os_version: 'o'.repeat(256) }),
    /^assets\[2\]\.os_version /,
  ],
  ['a risk_score of 101', withAsset({ name: 'x', risk_score: 101 }), /^assets\[2\]\.risk_score /],
  ['a risk_score of -1', withAsset({ name: 'x', risk_score: -1 }), /^assets\[2\]\.risk_score /],
  ['a risk_score of 1.5', withAsset({ name: 'x', risk_score: 1.5 }), /^assets\[2\]\.risk_score /],
  ['a risk_score of "5"', withAsset({ name: 'x', risk_score: '5' }), /^assets\[2\]\.risk_score /],
  [
    'vulnerabilities that are not an array',
    withAsset({ name: 'x', vulnerabilities: { id: 'CVE-2024-1' } }),
    /^assets\[2\]\.vulnerabilities must be an array/,
  ],

  // vulnerabilities
  ['a vulnerability that is not an object', withVulnerability('CVE-2024-1'), VULN],
  [
    'a vulnerability without an id',
    withVulnerability({ score: 5 }),
    /^assets\[2\]\.vulnerabilities\[2\]\.id /,
  ],
  [
    'a vulnerability id over 64 characters',
    withVulnerability({ id: 'C'.repeat(65) }),
    /^assets\[2\]\.vulnerabilities\[2\]\.id /,
  ],
  [
    'a vulnerability score of 11',
    withVulnerability({ id: 'CVE-2024-2', score: 11 }),
    /^assets\[2\]\.vulnerabilities\[2\]\.score /,
  ],
  [
    'a vulnerability score of -0.1',
    withVulnerability({ id: 'CVE-2024-2', score: -0.1 }),
    /^assets\[2\]\.vulnerabilities\[2\]\.score /,
  ],
  [
    'a vulnerability score of "high"',
    withVulnerability({ id: 'CVE-2024-2', score: 'high' }),
    /^assets\[2\]\.vulnerabilities\[2\]\.score /,
  ],
  [
    'a vulnerability summary over 2000 characters',
    withVulnerability({ id: 'CVE-2024-2', summary: 's'.repeat(2001) }),
    /^assets\[2\]\.vulnerabilities\[2\]\.summary /,
  ],
  [
    'a publishedDate with month 13',
    withVulnerability({ id: 'CVE-2024-2', publishedDate: '2024-13-01' }),
    /^assets\[2\]\.vulnerabilities\[2\]\.publishedDate /,
  ],
  [
    'a publishedDate of February 30th',
    withVulnerability({ id: 'CVE-2024-2', publishedDate: '2024-02-30' }),
    /^assets\[2\]\.vulnerabilities\[2\]\.publishedDate /,
  ],
  [
    'a publishedDate of February 29th in a common year',
    withVulnerability({ id: 'CVE-2024-2', publishedDate: '2023-02-29' }),
    /^assets\[2\]\.vulnerabilities\[2\]\.publishedDate /,
  ],
  [
    'a publishedDate of "yesterday"',
    withVulnerability({ id: 'CVE-2024-2', publishedDate: 'yesterday' }),
    /^assets\[2\]\.vulnerabilities\[2\]\.publishedDate /,
  ],
  [
    'a publishedDate with a time',
    withVulnerability({ id: 'CVE-2024-2', publishedDate: '2024-01-02T00:00:00Z' }),
    /^assets\[2\]\.vulnerabilities\[2\]\.publishedDate /,
  ],
  [
    'an unknown vulnerability property',
    withVulnerability({ id: 'CVE-2024-2', cvss: 5 }),
    /^assets\[2\]\.vulnerabilities\[2\]\.cvss is not an accepted property/,
  ],
  [
    'a vulnerability id repeated within one asset',
    withVulnerability({ id: 'CVE-2024-1000', score: 1 }),
    /^assets\[2\]\.vulnerabilities\[2\]\.id repeats assets\[2\]\.vulnerabilities\[0\]\.id/,
  ],

  // across asset items
  [
    'an asset id repeated within the payload',
    withAsset({ id: 'fresh-1', name: 'fresh again' }),
    /^assets\[2\]\.id repeats assets\[1\]\.id/,
  ],
  [
    'an asset id repeated before a later item that breaks a rule (the first bad item counts)',
    {
      assets: [...GOOD_ASSETS, { id: 'fresh-1', name: 'fresh again' }, { name: 'x', ip: 'nope' }],
      relations: GOOD_RELATIONS,
    },
    /^assets\[2\]\.id repeats assets\[1\]\.id/,
  ],
  [
    'a new asset without a name (merge)',
    withAsset({ id: 'fresh-3', ip: '10.8.0.3' }),
    /^assets\[2\]\.name is required/,
  ],
  [
    'a new asset without id nor name (merge)',
    withAsset({ ip: '10.8.0.4', vendor: 'Acme' }),
    /^assets\[2\]\.name is required/,
  ],

  // relation items
  [
    'a relation that is not an object',
    withRelation('seed-b->seed-c'),
    /^relations\[2\] must be an object/,
  ],
  [
    'a relation without sourceAssetId',
    withRelation({ targetAssetId: 'seed-c', type: 'link' }),
    /^relations\[2\]\.sourceAssetId /,
  ],
  [
    'a relation without targetAssetId',
    withRelation({ sourceAssetId: 'seed-b', type: 'link' }),
    /^relations\[2\]\.targetAssetId /,
  ],
  [
    'a relation without type',
    withRelation({ sourceAssetId: 'seed-b', targetAssetId: 'seed-c' }),
    /^relations\[2\]\.type /,
  ],
  [
    'a relation type over 64 characters',
    withRelation(relation({ type: 't'.repeat(65) })),
    /^relations\[2\]\.type /,
  ],
  ['a bad direction', withRelation(relation({ direction: 'both' })), /^relations\[2\]\.direction /],
  [
    'a protocol over 32 characters',
    withRelation(relation({ protocol: 'p'.repeat(33) })),
    /^relations\[2\]\.protocol /,
  ],
  ['toPorts "0"', withRelation(relation({ toPorts: '0' })), /^relations\[2\]\.toPorts /],
  ['toPorts "80-"', withRelation(relation({ toPorts: '80-' })), /^relations\[2\]\.toPorts /],
  ['toPorts "70000"', withRelation(relation({ toPorts: '70000' })), /^relations\[2\]\.toPorts /],
  [
    'toPorts given as a number',
    withRelation(relation({ toPorts: 80 })),
    /^relations\[2\]\.toPorts /,
  ],
  [
    'a relation from an asset to itself',
    withRelation(relation({ targetAssetId: 'seed-b' })),
    /^relations\[2\]\.targetAssetId must differ from sourceAssetId/,
  ],
  [
    'an unknown relation property',
    withRelation(relation({ weight: 1 })),
    /^relations\[2\]\.weight is not an accepted property/,
  ],
  [
    'a relation target that is neither in the payload nor stored',
    withRelation(relation({ targetAssetId: 'ghost' })),
    /^relations\[2\]\.targetAssetId refers to no asset/,
  ],
  [
    'a relation source that is neither in the payload nor stored',
    withRelation(relation({ sourceAssetId: 'ghost' })),
    /^relations\[2\]\.sourceAssetId refers to no asset/,
  ],
  [
    'two relations with the same source, target and type (merge)',
    withRelation({
      sourceAssetId: 'fresh-1',
      targetAssetId: 'seed-a',
      type: 'uplink',
      protocol: 'tcp',
    }),
    /^relations\[2\] repeats relations\[0\]/,
  ],
  [
    'a relation whose ends resolve to the same stored asset',
    {
      // alias-of-b is new as an id but its ip matches seed-b, so it merges into seed-b.
      assets: [...GOOD_ASSETS, { id: 'alias-of-b', ip: '10.9.0.2' }],
      relations: [
        ...GOOD_RELATIONS,
        { sourceAssetId: 'alias-of-b', targetAssetId: 'seed-b', type: 'link' },
      ],
    },
    /^relations\[2\] links an asset to itself/,
  ],
];

describe('POST /api/integrations/ingest', () => {
  let database: TestDatabase;
  let t: TestApp;
  let admin: string;
  let editor: { id: string; email: string; password: string; token: string };
  let viewer: { id: string; email: string; password: string; token: string };

  const ingest = (body: unknown, token = editor.token) =>
    t.request('POST', INGEST, { token, body });

  beforeAll(async () => {
    // On a file for SQLite, as in production (the writes then run in a worker thread).
    database = await createTestDatabase({ file: true });
    t = await TestApp.start({}, database);
    admin = await t.login();
    editor = await t.createUser('editor');
    viewer = await t.createUser('viewer');
    const seeded = await ingest(SEED);
    expect(seeded.status).toBe(200);
    expect(seeded.body.stats).toMatchObject({ assetsCreated: 3, relationsCreated: 1 });
  });
  afterAll(async () => {
    await t.close();
    await database.drop();
  });

  describe('validation', () => {
    let seeded: Awaited<ReturnType<typeof snapshot>>;
    beforeAll(async () => {
      seeded = await snapshot(t, false);
    });
    // A case that wrongly wrote would leave the good items of the next cases with nothing to
    // change: put the seeded store back, so that each case starts from it.
    afterEach(async () => {
      if (isDeepStrictEqual(await snapshot(t, false), seeded)) return;
      const restored = await ingest({ ...SEED, options: { mode: 'replace' } }, admin);
      expect(restored.status).toBe(200);
      expect(await snapshot(t, false)).toEqual(seeded);
    });

    it('starts from a store that is not empty', async () => {
      expect(seeded.assets).toBe(3);
      expect(seeded.vulnerabilities).toBe(1);
      expect(seeded.relations).toBe(1);
    });

    it.each(INVALID)(
      'refuses %s with 400 naming the item, writing nothing',
      async (_case, body, message) => {
        const before = await snapshot(t);
        const response = await ingest(body);
        expect(response.status).toBe(400);
        expectErrorBody(response, message);
        expect(await snapshot(t)).toEqual(before);
      },
    );

    it('names the 57th item of 60 when only it is invalid, writing nothing', async () => {
      const assets = Array.from({ length: 60 }, (_, i) => ({
        id: `bulk-${i}`,
        name: `bulk ${i}`,
        ip: `10.7.0.${i + 1}`,
      }));
      assets[57].ip = '10.7.0.999';
      const before = await snapshot(t);
      const response = await ingest({ assets });
      expect(response.status).toBe(400);
      expectErrorBody(response, /^assets\[57\]\.ip must be an IP address/);
      expect(await snapshot(t)).toEqual(before);
    });

    it('accepts the good items alone (the control for the cases above)', async () => {
      const response = await ingest({ assets: GOOD_ASSETS, relations: GOOD_RELATIONS });
      expect(response.status).toBe(200);
      expect(response.body.stats).toMatchObject({
        assetsCreated: 1,
        assetsUpdated: 1,
        relationsCreated: 1,
        relationsUpdated: 1,
        vulnerabilities: 0,
      });
      const store = await snapshot(t);
      expect(store.assets).toBe(4);
      expect(store.vulnerabilities).toBe(0);
      expect(store.relations).toBe(2);
    });
  });

  describe('values at the limits', () => {
    it('accepts every field at its boundary', async () => {
      const id = 'i'.repeat(200);
      const response = await ingest({
        assets: [
          {
            id,
            name: 'n'.repeat(255),
            ip: '2001:db8::1',
            type: 't'.repeat(64),
            vendor: 'v'.repeat(255),
            model: 'm'.repeat(255),
            site: 's'.repeat(255),
            os_version: 'o'.repeat(255),
            risk_score: 100,
            vulnerabilities: [
              {
                id: 'C'.repeat(64),
                score: 10,
                summary: 's'.repeat(2000),
                publishedDate: '2024-02-29',
              },
              { id: 'CVE-2024-0000', score: 0, summary: null, publishedDate: null },
            ],
          },
          { id: 'limits-2', name: 'n', ip: null, risk_score: 0 },
        ],
        relations: [
          {
            sourceAssetId: id,
            targetAssetId: 'limits-2',
            type: 't'.repeat(64),
            direction: 'mono',
            protocol: 'p'.repeat(32),
            toPorts: '1,65535,8000-8080',
          },
        ],
        options: { source: 's'.repeat(100) },
      });
      expect(response.status).toBe(200);
      expect(response.body.stats).toMatchObject({
        assetsCreated: 2,
        relationsCreated: 1,
        vulnerabilities: 2,
      });
    });

    it('accepts an id of printable characters beyond the Basic Multilingual Plane', async () => {
      // The contract allows 1 to 200 printable characters: an emoji or a CJK extension B
      // ideograph is printable.
      const id = 'srv-\u{1F4BB}-\u{20000}';
      const response = await ingest({ assets: [{ id, name: 'astral' }] });
      expect(response.status).toBe(200);
      expect(response.body.stats.assetsCreated).toBe(1);
      const rows = await t.dataSource.query("SELECT id FROM assets WHERE name = 'astral'");
      expect(rows).toEqual([{ id }]);
    });
  });

  describe('append mode', () => {
    it('is 409 for an id that already exists, writing nothing', async () => {
      const before = await snapshot(t);
      const response = await ingest({
        assets: [
          { name: 'append one' },
          { id: 'append-new', name: 'append two' },
          { id: 'seed-b', name: 'clash' },
        ],
        relations: [{ sourceAssetId: 'append-new', targetAssetId: 'seed-c', type: 'link' }],
        options: { mode: 'append' },
      });
      expect(response.status).toBe(409);
      expectErrorBody(response, /^assets\[2\]\.id .*already exists/);
      expect(await snapshot(t)).toEqual(before);
    });

    it('creates new assets every time when the items carry no id', async () => {
      const body = {
        assets: [
          { name: 'appended-1', ip: '10.6.0.1' },
          { name: 'appended-2', ip: '10.6.0.2' },
        ],
        options: { mode: 'append' },
      };
      const appended = async () =>
        Number(
          (
            await t.dataSource.query(
              "SELECT COUNT(*) AS count FROM assets WHERE name IN ('appended-1', 'appended-2')",
            )
          )[0].count,
        );
      const total = await assetCount(t);

      const first = await ingest(body);
      expect(first.status).toBe(200);
      expect(first.body.stats).toMatchObject({ assetsCreated: 2, assetsUpdated: 0 });
      expect(await appended()).toBe(2);

      const second = await ingest(body);
      expect(second.status).toBe(200);
      expect(second.body.stats).toMatchObject({ assetsCreated: 2, assetsUpdated: 0 });
      expect(await appended()).toBe(4);
      expect(await assetCount(t)).toBe(total + 4);
    });
  });

  describe('content type and syntax', () => {
    it('is 415 for a text/plain body, writing nothing', async () => {
      const before = await snapshot(t);
      const response = await t.request('POST', INGEST, {
        token: editor.token,
        rawBody: JSON.stringify({ assets: [{ name: 'plain' }] }),
        headers: { 'content-type': 'text/plain' },
      });
      expect(response.status).toBe(415);
      expectErrorBody(response, /application\/json/);
      expect(await snapshot(t)).toEqual(before);
    });

    it('is 400 for malformed JSON', async () => {
      const before = await snapshot(t);
      const response = await t.request('POST', INGEST, {
        token: editor.token,
        rawBody: '{"assets": [{"name": "broken"},',
        headers: { 'content-type': 'application/json' },
      });
      expect(response.status).toBe(400);
      expectErrorBody(response, /not valid JSON/);
      expect(await snapshot(t)).toEqual(before);
    });

    it('is 400 for malformed JSON inside an item past the first slice, writing nothing', async () => {
      const before = await snapshot(t);
      const response = await t.request('POST', INGEST, {
        token: editor.token,
        // Items are parsed 2,000 at a time once a scanner has found them: this one is in the 2nd lot.
        rawBody: `{"assets": [${'{"name": "fine"},'.repeat(2_500)}{"name": tru}]}`,
        headers: { 'content-type': 'application/json' },
      });
      expect(response.status).toBe(400);
      expectErrorBody(response, /not valid JSON/);
      expect(await snapshot(t)).toEqual(before);
    });

    it('is 400 for a "__proto__" key at any level, writing nothing', async () => {
      const before = await snapshot(t);
      for (const [rawBody, message] of [
        ['{"__proto__": {"role": "admin"}, "assets": [{"name": "p"}]}', /^__proto__ is not/],
        ['{"assets": [{"name": "p", "__proto__": {"x": 1}}]}', /^assets\[0\]\.__proto__ is not/],
        ['{"assets": [{"name": "p", "constructor": {"prototype": {}}}]}', /constructor is not/],
      ] as const) {
        const response = await t.request('POST', INGEST, {
          token: editor.token,
          rawBody,
          headers: { 'content-type': 'application/json' },
        });
        expect(response.status).toBe(400);
        expectErrorBody(response, message);
      }
      expect(await snapshot(t)).toEqual(before);
    });

    it('is 400 for a body that is not an object, or an empty one, writing nothing', async () => {
      const before = await snapshot(t);
      for (const rawBody of ['[{"name": "a"}]', '"assets"', 'null', '']) {
        const response = await t.request('POST', INGEST, {
          token: editor.token,
          rawBody,
          headers: { 'content-type': 'application/json' },
        });
        expect(response.status).toBe(400);
        expectErrorBody(response, /body must be a JSON object/);
      }
      expect(await snapshot(t)).toEqual(before);
    });
  });

  describe('body size on the default limits', () => {
    it('accepts a 2 MiB ingestion body, more than the 1 MiB of other routes', async () => {
      const assets = Array.from({ length: 5000 }, (_, i) => ({
        name: `${String(i).padStart(5, '0')}-${'n'.repeat(249)}`,
        site: 's'.repeat(200),
      }));
      const body = JSON.stringify({ assets });
      expect(Buffer.byteLength(body)).toBeGreaterThan(2 * MiB);
      const total = await assetCount(t);
      const response = await t.request('POST', INGEST, {
        token: editor.token,
        rawBody: body,
        headers: { 'content-type': 'application/json' },
      });
      expect(response.status).toBe(200);
      expect(response.body.stats).toMatchObject({ assetsCreated: 5000 });
      expect(await assetCount(t)).toBe(total + 5000);
    });

    it('keeps the 1 MiB limit on POST /api/assets (413)', async () => {
      const total = await assetCount(t);
      const response = await t.request('POST', '/api/assets', {
        token: editor.token,
        body: { name: 'huge', vendor: 'v'.repeat(2 * MiB) },
      });
      expect(response.status).toBe(413);
      expectErrorBody(response, new RegExp(`${MiB} bytes`));
      expect(await assetCount(t)).toBe(total);
    });
  });

  describe('response', () => {
    it('is exactly {success, runId, dryRun, stats, changes} with the thirteen counters', async () => {
      const body = {
        assets: [
          {
            id: 'shape-1',
            name: 'shape one',
            vulnerabilities: [
              { id: 'CVE-2024-3001', score: 9.8, summary: 'rce', publishedDate: '2024-03-01' },
              { id: 'CVE-2024-3002' },
            ],
          },
          {
            id: 'shape-2',
            name: 'shape two',
            vulnerabilities: [{ id: 'CVE-2024-3001', score: 0 }],
          },
        ],
        relations: [{ sourceAssetId: 'shape-1', targetAssetId: 'shape-2', type: 'link' }],
      };
      const response = await ingest(body);
      expect(response.status).toBe(200);
      expect(Object.keys(response.body).sort()).toEqual([
        'changes',
        'dryRun',
        'runId',
        'stats',
        'success',
      ]);
      expect(response.body.success).toBe(true);
      expect(Object.keys(response.body.stats).sort()).toEqual(STATS_KEYS);
      expect(response.body.stats).toEqual({
        assetsCreated: 2,
        assetsUpdated: 0,
        assetsUnchanged: 0,
        assetsDeleted: 0,
        relationsCreated: 1,
        relationsUpdated: 0,
        relationsUnchanged: 0,
        relationsDeleted: 0,
        vulnerabilities: 3,
        findingsOpened: 3,
        findingsReopened: 0,
        findingsFixed: 0,
        duration: expect.stringMatching(/^\d+ms$/),
      });

      // The same merge payload again changes nothing.
      const again = await ingest(body);
      expect(again.status).toBe(200);
      expect(again.body.stats).toEqual({
        assetsCreated: 0,
        assetsUpdated: 0,
        assetsUnchanged: 2,
        assetsDeleted: 0,
        relationsCreated: 0,
        relationsUpdated: 0,
        relationsUnchanged: 1,
        relationsDeleted: 0,
        vulnerabilities: 0,
        findingsOpened: 0,
        findingsReopened: 0,
        findingsFixed: 0,
        duration: expect.stringMatching(/^\d+ms$/),
      });
    });
  });

  describe('authentication and roles', () => {
    const createKey = async (token: string) => {
      const response = await t.request('POST', '/api/auth/api-keys', {
        token,
        body: { name: 'ci' },
      });
      expect(response.status).toBe(201);
      return response.body.key as string;
    };
    const body = (tag: string, mode = 'merge') => ({
      assets: [{ name: `roles ${tag}`, ip: '10.5.0.1' }],
      options: { mode },
    });

    it('is 401 without a token', async () => {
      const before = await snapshot(t);
      const response = await t.request('POST', INGEST, { body: body('anonymous') });
      expect(response.status).toBe(401);
      expectErrorBody(response);
      expect(await snapshot(t)).toEqual(before);
    });

    it('is 401 with an unknown API key', async () => {
      const response = await ingest(body('unknown'), 'not-a-real-key');
      expect(response.status).toBe(401);
      expectErrorBody(response);
    });

    it('is 403 for a viewer, with a session token or an API key, writing nothing', async () => {
      const key = await createKey(viewer.token);
      for (const token of [viewer.token, key]) {
        for (const mode of ['merge', 'append']) {
          const before = await snapshot(t);
          const response = await ingest(body('viewer', mode), token);
          expect(response.status).toBe(403);
          expectErrorBody(response);
          expect(await snapshot(t)).toEqual(before);
        }
      }
    });

    it('is 200 for an editor with a session token, in merge and append mode', async () => {
      const merged = await ingest(body('editor session'), editor.token);
      expect(merged.status).toBe(200);
      const appended = await ingest(body('editor session', 'append'), editor.token);
      expect(appended.status).toBe(200);
      expect(appended.body.stats.assetsCreated).toBe(1);
    });

    it('is 200 for an editor with an API key, in merge and append mode', async () => {
      const key = await createKey(editor.token);
      const merged = await ingest(body('editor key'), key);
      expect(merged.status).toBe(200);
      const appended = await ingest(body('editor key', 'append'), key);
      expect(appended.status).toBe(200);
      expect(appended.body.stats.assetsCreated).toBe(1);
    });

    it('is 403 for an editor in replace mode (session or API key), deleting nothing', async () => {
      const key = await createKey(editor.token);
      for (const token of [editor.token, key]) {
        const before = await snapshot(t);
        const response = await ingest(body('editor replace', 'replace'), token);
        expect(response.status).toBe(403);
        expectErrorBody(response);
        expect(await snapshot(t)).toEqual(before);
      }
    });

    it('is 200 for an admin in replace mode, which deletes the stored assets', async () => {
      const before = await snapshot(t);
      expect(before.assets).toBeGreaterThan(0);
      const response = await ingest(
        {
          assets: [
            { id: 'replaced-1', name: 'replaced one' },
            { id: 'replaced-2', name: 'replaced two' },
          ],
          relations: [{ sourceAssetId: 'replaced-1', targetAssetId: 'replaced-2', type: 'link' }],
          options: { mode: 'replace' },
        },
        admin,
      );
      expect(response.status).toBe(200);
      expect(response.body.stats).toMatchObject({
        assetsCreated: 2,
        assetsDeleted: before.assets,
        relationsCreated: 1,
        relationsDeleted: before.relations,
      });
      const after = await snapshot(t);
      expect(after.assetRows.map((row: { id: string }) => row.id)).toEqual([
        'replaced-1',
        'replaced-2',
      ]);
      expect(after.relations).toBe(1);
      expect(after.vulnerabilities).toBe(0);
    });
  });
});

describe('POST /api/integrations/ingest with INGEST_MAX_BYTES=200000', () => {
  const LIMIT = 200_000;
  let t: TestApp;
  let admin: string;

  /** A JSON ingestion body of exactly `size` bytes, made of real assets (names of 200 and less). */
  function bodyOfSize(size: number): string {
    const item = (length: number) => ({ name: 'n'.repeat(length) });
    const full = JSON.stringify(item(200)).length + 1;
    const assets: { name: string }[] = [];
    while (JSON.stringify({ assets }).length + full + 20 <= size) assets.push(item(200));
    const rest = size - JSON.stringify({ assets }).length - JSON.stringify(item(0)).length - 1;
    assets.push(item(rest));
    const body = JSON.stringify({ assets });
    expect(Buffer.byteLength(body)).toBe(size);
    return body;
  }

  const send = (rawBody: string) =>
    t.request('POST', INGEST, {
      token: admin,
      rawBody,
      headers: { 'content-type': 'application/json' },
    });

  beforeAll(async () => {
    t = await TestApp.start({ INGEST_MAX_BYTES: String(LIMIT) });
    admin = await t.login();
  });
  afterAll(async () => {
    await t.close();
  });

  it('accepts a body of exactly the limit', async () => {
    const body = bodyOfSize(LIMIT);
    const count = JSON.parse(body).assets.length;
    const response = await send(body);
    expect(response.status).toBe(200);
    expect(response.body.stats.assetsCreated).toBe(count);
  });

  it('accepts a body just under the limit', async () => {
    const response = await send(bodyOfSize(LIMIT - 100));
    expect(response.status).toBe(200);
  });

  it('is 413 naming the limit for a body one byte over it, writing nothing', async () => {
    const before = await assetCount(t);
    const response = await send(bodyOfSize(LIMIT + 1));
    expect(response.status).toBe(413);
    expectErrorBody(response, /200000 bytes/);
    expect(await assetCount(t)).toBe(before);
  });

  it('keeps 1 MiB on other routes', async () => {
    const response = await t.request('POST', '/api/assets', {
      token: admin,
      body: { name: 'big', vendor: 'v'.repeat(MiB) },
    });
    expect(response.status).toBe(413);
    expectErrorBody(response);
  });
});
