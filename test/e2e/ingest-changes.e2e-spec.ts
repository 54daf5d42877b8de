import { describe, expect, it } from '@jest/globals';
import type { AppDataSource } from '../../src/database/app-data-source.js';
import { holdIngestionLocks, storeRows, useIngestionApp } from '../support/ingest-helpers.js';
import { expectErrorBody, TestApp } from '../support/test-app.js';

/** The answer's change lists, and the dry run that answers them without writing. */
describe('ingestion changes and dry runs', () => {
  let t: TestApp;
  let admin: string;
  let editor: string;

  const post = (body: object, token = editor) =>
    t.request('POST', '/api/integrations/ingest', { token, body });
  const ingest = async (body: object, token = editor) => {
    const response = await post(body, token);
    expect(response.status).toBe(200);
    return response.body;
  };
  /** Every row an ingestion may write, sightings included, to prove that nothing was. */
  const store = () => storeRows(t.dataSource);
  /** The change history, its records and their sets, to prove that a dry run adds to neither. */
  const history = async () =>
    JSON.stringify({
      changes: await t.dataSource.query('SELECT * FROM changes ORDER BY id'),
      sets: await t.dataSource.query('SELECT * FROM change_sets ORDER BY id'),
    });

  useIngestionApp((app) => ({ t, admin, editor } = app), { emptyEach: true });

  /** A store for a feed to change: two of its assets, one of another feed, three relations. */
  const seed = async () => {
    await ingest({
      options: { source: 'nmap' },
      assets: [
        {
          id: 'fw',
          name: 'fw',
          ip: '10.0.0.1',
          vulnerabilities: [
            { id: 'CVE-1', score: 9.8, summary: 'rce', publishedDate: '2024-01-02' },
          ],
        },
        { id: 'old', name: 'old host', ip: '10.0.0.9' },
      ],
      relations: [
        { sourceAssetId: 'fw', targetAssetId: 'old', type: 'link' },
        { sourceAssetId: 'old', targetAssetId: 'fw', type: 'nat', direction: 'mono' },
      ],
    });
    await ingest({
      options: { source: 'cmdb' },
      assets: [{ id: 'web', name: 'web', ip: '10.0.0.2' }],
      relations: [{ sourceAssetId: 'web', targetAssetId: 'fw', type: 'route', toPorts: '443' }],
    });
    const manual = await t.request('POST', '/api/assets', {
      token: editor,
      body: { name: 'router', ip: '10.0.0.254' },
    });
    return manual.body.id as string;
  };

  /** The feed's next scan: updates, creations, deleteStale. */
  const scan = (extra: object = {}) => ({
    options: { source: 'nmap', deleteStale: true, ...extra },
    assets: [
      {
        id: 'fw',
        ip: '10.0.0.11',
        vulnerabilities: [
          { id: 'CVE-2', score: 5 },
          { id: 'CVE-1', score: 9.8, summary: 'rce', publishedDate: '2024-01-02' },
        ],
      },
      { id: 'new', name: 'new host' },
      { name: 'gw', ip: '10.0.0.254' },
      { id: 'web' },
    ],
    relations: [
      { sourceAssetId: 'web', targetAssetId: 'fw', type: 'route', toPorts: '443,8443' },
      { sourceAssetId: 'new', targetAssetId: 'fw', type: 'link' },
    ],
  });

  it('lists what a run created, updated and deleted, field by field', async () => {
    const router = await seed();
    const body = await ingest(scan());
    expect(body.dryRun).toBe(false);
    const { duration, ...stats } = body.stats;
    expect(duration).toMatch(/^\d+ms$/);
    expect(stats).toEqual({
      assetsCreated: 1,
      // fw (fields, vulnerabilities), gw (the hand-made router), web (gains the source).
      assetsUpdated: 3,
      assetsUnchanged: 0,
      assetsDeleted: 1,
      relationsCreated: 1,
      relationsUpdated: 1,
      relationsUnchanged: 0,
      // link and nat go with old.
      relationsDeleted: 2,
      vulnerabilities: 2,
      findingsOpened: 1,
      findingsReopened: 0,
      findingsFixed: 0,
    });
    const { assets, relations, truncated } = body.changes;
    expect(truncated).toBe(false);
    expect(assets.created).toEqual([{ id: 'new', name: 'new host' }]);
    expect(assets.updated).toEqual([
      {
        id: 'fw',
        name: 'fw',
        fields: {
          ip: ['10.0.0.1', '10.0.0.11'],
          addresses: [['10.0.0.1'], ['10.0.0.11']],
          vulnerabilities: [
            [{ id: 'CVE-1', score: 9.8, summary: 'rce', publishedDate: '2024-01-02' }],
            [
              { id: 'CVE-1', score: 9.8, summary: 'rce', publishedDate: '2024-01-02' },
              { id: 'CVE-2', score: 5, summary: null, publishedDate: null },
            ],
          ],
        },
      },
      {
        id: router,
        name: 'gw',
        fields: {
          name: ['router', 'gw'],
          source: [null, 'nmap'],
          sources: [[], ['nmap']],
          firstSeenAt: [null, expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)],
        },
      },
      {
        id: 'web',
        name: 'web',
        fields: { source: ['cmdb', 'nmap'], sources: [['cmdb'], ['cmdb', 'nmap']] },
      },
    ]);
    expect(assets.deleted).toEqual([{ id: 'old', name: 'old host' }]);
    const stored = await t.request('GET', '/api/relations', { token: editor });
    const route = stored.body.find((r: any) => r.type === 'route');
    const link = stored.body.find((r: any) => r.type === 'link');
    expect(relations.created).toEqual([
      { id: link.id, sourceAssetId: 'new', targetAssetId: 'fw', type: 'link' },
    ]);
    expect(relations.updated).toEqual([
      {
        id: route.id,
        sourceAssetId: 'web',
        targetAssetId: 'fw',
        type: 'route',
        fields: { toPorts: ['443', '443,8443'] },
      },
    ]);
    expect(relations.deleted.map((r: any) => r.type).sort()).toEqual(['link', 'nat']);
    expect(relations.deleted.map((r: any) => r.id)).toEqual(
      [...relations.deleted.map((r: any) => r.id)].sort(),
    );
    expect(relations.deleted).toContainEqual(
      expect.objectContaining({ sourceAssetId: 'old', targetAssetId: 'fw', type: 'nat' }),
    );
  });

  it('keeps 100 entries per list, in payload order or id order, with the full counts', async () => {
    const items = Array.from({ length: 150 }, (_, i) => ({
      id: `h-${String(149 - i).padStart(3, '0')}`,
      name: `host ${i}`,
    }));
    const created = await ingest({ assets: items });
    expect(created.stats.assetsCreated).toBe(150);
    expect(created.changes.assets.created).toEqual(
      items.slice(0, 100).map(({ id, name }) => ({ id, name })),
    );
    expect(created.changes.truncated).toBe(true);

    const renamed = await ingest({ assets: items.slice(0, 5).map(({ id }) => ({ id, name: id })) });
    expect(renamed.changes.truncated).toBe(false);
    expect(renamed.changes.assets.updated).toHaveLength(5);

    const replaced = await ingest({ options: { mode: 'replace' } }, admin);
    expect(replaced.stats.assetsDeleted).toBe(150);
    expect(replaced.changes.assets.deleted.map((a: any) => a.id)).toEqual(
      items
        .map((item) => item.id)
        .sort()
        .slice(0, 100),
    );
    expect(replaced.changes.assets.deleted[0]).toEqual({ id: 'h-000', name: 'host 149' });
    expect(replaced.changes.truncated).toBe(true);
  });

  describe('dry run', () => {
    /** Ids a run gives new rows, in the order its answer first shows them, as placeholders. */
    const withoutNewIds = (answer: any, payloadIds: Set<string>) => {
      const renamed = new Map<string, string>();
      const text = JSON.stringify(answer.changes, (key, value: unknown) => {
        if (key === 'id' && typeof value === 'string' && /^[0-9a-f-]{36}$/.test(value)) {
          if (!payloadIds.has(value)) {
            if (!renamed.has(value)) renamed.set(value, `new-${renamed.size}`);
            return renamed.get(value);
          }
        }
        return value;
      });
      // The run's own time.
      return JSON.parse(text.replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g, 'time'));
    };
    const stats = ({ duration: _duration, ...rest }: Record<string, unknown>) => rest;

    it('answers what the real run then does, and writes nothing', async () => {
      const router = await seed();
      const before = await store();
      const recorded = await history();
      const dry = await ingest(scan({ dryRun: true }));
      expect(dry.dryRun).toBe(true);
      expect(await store()).toEqual(before);
      expect(await history()).toEqual(recorded);

      const real = await ingest(scan());
      expect(real.dryRun).toBe(false);
      expect(stats(dry.stats)).toEqual(stats(real.stats));
      const known = new Set([router]);
      expect(withoutNewIds(dry, known)).toEqual(withoutNewIds(real, known));
      expect(dry.changes.assets.updated).toHaveLength(3);
    });

    it('counts a relation it creates to an asset deleteStale deletes as the real run does', async () => {
      await seed();
      // 'old' is named only as a relation's end: stale, deleted with the relation just made.
      const body = {
        options: { source: 'nmap', deleteStale: true },
        assets: [{ id: 'fw' }, { id: 'fresh', name: 'fresh' }],
        relations: [{ sourceAssetId: 'fresh', targetAssetId: 'old', type: 'probe' }],
      };
      const dry = await ingest({ ...body, options: { ...body.options, dryRun: true } });
      const real = await ingest(body);
      expect(stats(dry.stats)).toEqual(stats(real.stats));
      expect(real.stats).toMatchObject({
        assetsDeleted: 1,
        relationsCreated: 1,
        relationsDeleted: 3,
      });
      const known = new Set<string>();
      expect(withoutNewIds(dry, known)).toEqual(withoutNewIds(real, known));
    });

    it('of the same payload again: all unchanged, no sighting moved', async () => {
      await seed();
      await ingest(scan());
      const before = await store();
      const recorded = await history();
      const dry = await ingest(scan({ dryRun: true }));
      expect(stats(dry.stats)).toEqual({
        assetsCreated: 0,
        assetsUpdated: 0,
        assetsUnchanged: 4,
        assetsDeleted: 0,
        relationsCreated: 0,
        relationsUpdated: 0,
        relationsUnchanged: 2,
        relationsDeleted: 0,
        vulnerabilities: 0,
        findingsOpened: 0,
        findingsReopened: 0,
        findingsFixed: 0,
      });
      expect(await store()).toEqual(before);
      expect(await history()).toEqual(recorded);
    });

    it('of append and replace, counted as the real run counts them', async () => {
      await seed();
      const before = await store();
      const append = { options: { mode: 'append', dryRun: true }, assets: [{ name: 'n' }] };
      expect((await ingest(append)).stats).toMatchObject({ assetsCreated: 1 });
      const replace = {
        options: { mode: 'replace', dryRun: true },
        assets: [{ id: 'x', name: 'x' }],
      };
      const dry = await ingest(replace, admin);
      expect(await store()).toEqual(before);
      const real = await ingest({ ...replace, options: { mode: 'replace' } }, admin);
      expect(stats(dry.stats)).toEqual(stats(real.stats));
      expect(dry.changes).toEqual(real.changes);
      expect(real.stats).toMatchObject({ assetsDeleted: 4, relationsDeleted: 3, assetsCreated: 1 });
    });

    it('takes no write lock: it answers while the ingestion lock is held in and out of the process', async () => {
      await seed();
      const locks = await holdIngestionLocks(t.dataSource as AppDataSource);
      try {
        const dry = await ingest(scan({ dryRun: true }));
        expect(dry.stats).toMatchObject({ assetsCreated: 1, assetsUpdated: 3, assetsDeleted: 1 });
      } finally {
        await locks.release();
      }
    });

    it('refuses what the real run refuses: 400, 403, 409', async () => {
      await seed();
      const before = await store();
      const bad = await post({ options: { dryRun: true }, assets: [{ id: 'fw', ip: 'nope' }] });
      expect(bad.status).toBe(400);
      expectErrorBody(bad, /^assets\[0\]\.ip must be an IP address$/);
      const missing = await post({
        options: { dryRun: true },
        relations: [{ sourceAssetId: 'fw', targetAssetId: 'nowhere', type: 'x' }],
      });
      expect(missing.status).toBe(400);
      const forbidden = await post({ options: { mode: 'replace', dryRun: true } });
      expect(forbidden.status).toBe(403);
      const append = await post({
        options: { mode: 'append', dryRun: true },
        assets: [{ id: 'fw', name: 'fw' }],
      });
      expect(append.status).toBe(409);
      const limited = await post(scan({ dryRun: true, maxDeletions: 0 }));
      expect(limited.status).toBe(409);
      expectErrorBody(limited, /would delete 1 assets, more than maxDeletions 0$/);
      expect(await store()).toEqual(before);
    });
  });
});
