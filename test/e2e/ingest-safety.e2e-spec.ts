import { describe, expect, it } from '@jest/globals';
import { isoTimestamp } from '../../src/database/timestamps.js';
import { storeRows, useIngestionApp } from '../support/ingest-helpers.js';
import { expectErrorBody, TestApp } from '../support/test-app.js';

/**
 * The rules that keep an unattended (CI) ingestion from deleting what it should not: roles,
 * maxDeletions, matchBy, and deleteStale by provenance (origin, sources, sightings).
 */
describe('ingestion safety and provenance', () => {
  let t: TestApp;
  let admin: string;
  let editor: string;

  const post = (body: object, token = editor) =>
    t.request('POST', '/api/integrations/ingest', { token, body });
  const ingest = async (body: object, token = editor) => {
    const response = await post(body, token);
    expect(response.status).toBe(200);
    return response.body as { stats: Record<string, unknown>; changes: any };
  };
  const sql = (text: string, params: unknown[] = []) => {
    let position = 0;
    const query =
      t.dataSource.options.type === 'postgres' ? text.replace(/\?/g, () => `$${++position}`) : text;
    return t.dataSource.query<Record<string, any>[]>(query, params);
  };
  const time = (value: unknown) => (value === null ? null : isoTimestamp(value as string | Date));
  /** An asset's provenance as stored (the asset response shows the same fields). */
  const provenance = async (id: string) => {
    const [row] = await sql(
      'SELECT name, source, origin, first_seen_at, last_seen_at, updated_at FROM assets WHERE id = ?',
      [id],
    );
    if (!row) return undefined;
    const sources = await sql(
      'SELECT source FROM asset_sources WHERE asset_id = ? ORDER BY position',
      [id],
    );
    return {
      name: row.name as string,
      source: row.source as string | null,
      origin: row.origin as string,
      sources: sources.map((entry) => entry.source as string),
      firstSeenAt: time(row.first_seen_at),
      lastSeenAt: time(row.last_seen_at),
      updatedAt: time(row.updated_at)!,
    };
  };
  /** Every row an ingestion may write, to prove that nothing was. */
  const store = () => storeRows(t.dataSource);
  const ids = async () => (await sql('SELECT id FROM assets ORDER BY id')).map((row) => row.id);
  const handMade = async (body: object) => {
    const response = await t.request('POST', '/api/assets', { token: editor, body });
    expect(response.status).toBe(201);
    return response.body.id as string;
  };

  useIngestionApp((app) => ({ t, admin, editor } = app), { emptyEach: true });

  const feed = (source: string, ...items: object[]) => ({
    options: { source, deleteStale: true },
    assets: items,
  });

  describe('deleteStale without a source', () => {
    it('is 403 for an editor, checked before any item, and deletes nothing', async () => {
      await handMade({ name: 'router', ip: '10.0.0.1' });
      await ingest({ assets: [{ id: 'a', name: 'a' }] });
      const before = await store();
      for (const body of [
        { options: { deleteStale: true } },
        { options: { deleteStale: true, source: null }, assets: [{ id: 'a' }] },
        // The items are not read: even a bad one is answered 403.
        { options: { deleteStale: true }, assets: [{ ip: 'not an ip' }] },
        { options: { deleteStale: true, dryRun: true } },
      ]) {
        const response = await post(body);
        expect(response.status).toBe(403);
        expectErrorBody(
          response,
          /^options\.deleteStale without options\.source requires the admin role$/,
        );
      }
      expect(await store()).toEqual(before);
    });

    it('deletes, for an admin, every stored asset the payload does not name, hand-made too', async () => {
      const router = await handMade({ name: 'router' });
      await ingest(feed('nmap', { id: 'a', name: 'a' }, { id: 'b', name: 'b' }));
      const answer = await ingest({ options: { deleteStale: true }, assets: [{ id: 'a' }] }, admin);
      expect(answer.stats).toMatchObject({ assetsDeleted: 2, assetsUnchanged: 1 });
      expect(answer.changes.assets.deleted).toEqual(
        [
          { id: 'b', name: 'b' },
          { id: router, name: 'router' },
        ].sort((x, y) => (x.id < y.id ? -1 : 1)),
      );
      expect(await ids()).toEqual(['a']);
    });
  });

  describe('deleteStale with a source', () => {
    it('deletes an asset that feed created and no other feed reports', async () => {
      await ingest(feed('nmap', { id: 'a', name: 'a' }, { id: 'b', name: 'b' }));
      const answer = await ingest(feed('nmap', { id: 'a' }));
      expect(answer.stats).toMatchObject({
        assetsDeleted: 1,
        assetsUnchanged: 1,
        assetsUpdated: 0,
      });
      expect(await ids()).toEqual(['a']);
    });

    it('keeps an asset another feed reports, taking the source out of its sources', async () => {
      await ingest(feed('nmap', { id: 'a', name: 'a' }, { id: 'b', name: 'b' }));
      await ingest({ options: { source: 'cmdb' }, assets: [{ id: 'b' }] });
      expect((await provenance('b'))!.sources).toEqual(['nmap', 'cmdb']);
      const before = (await provenance('b'))!;

      const answer = await ingest(feed('nmap', { id: 'a' }));
      expect(answer.stats).toMatchObject({
        assetsDeleted: 0,
        assetsUpdated: 1,
        assetsUnchanged: 1,
      });
      expect(answer.changes.assets.updated).toEqual([
        { id: 'b', name: 'b', fields: { sources: [['nmap', 'cmdb'], ['cmdb']] } },
      ]);
      const after = (await provenance('b'))!;
      expect(after).toMatchObject({ sources: ['cmdb'], origin: 'ingest', source: 'cmdb' });
      // An update of its sources; not a sighting.
      expect(after.updatedAt > before.updatedAt).toBe(true);
      expect(after.lastSeenAt).toBe(before.lastSeenAt);

      // The other feed's own deleteStale then deletes it: no source is left.
      expect((await ingest(feed('cmdb'))).stats).toMatchObject({ assetsDeleted: 1 });
      expect(await ids()).toEqual(['a']);
    });

    it('a hand-made router matched by ip and renamed by a feed survives that feed’s deleteStale', async () => {
      const router = await handMade({ name: 'core router', ip: '10.0.0.254', type: 'router' });
      await ingest({
        options: { source: 'nmap-dmz' },
        assets: [{ name: 'gw.dmz', ip: '10.0.0.254', type: 'switch' }],
      });
      expect(await provenance(router)).toMatchObject({
        name: 'gw.dmz',
        origin: 'manual',
        source: 'nmap-dmz',
        sources: ['nmap-dmz'],
      });

      const answer = await ingest(feed('nmap-dmz'));
      expect(answer.stats).toMatchObject({ assetsDeleted: 0, assetsUpdated: 1 });
      expect(await provenance(router)).toMatchObject({ origin: 'manual', sources: [] });
      // Even with no feed left reporting it, a later run of the feed leaves it alone.
      expect((await ingest(feed('nmap-dmz'))).stats).toMatchObject({
        assetsDeleted: 0,
        assetsUpdated: 0,
      });
      expect(await ids()).toEqual([router]);
    });

    it('never touches assets of other feeds or made by hand that never had the source', async () => {
      const kept = await handMade({ name: 'printer' });
      await ingest({ options: { source: 'cmdb' }, assets: [{ id: 'c', name: 'c' }] });
      expect((await ingest(feed('nmap'))).stats).toMatchObject({
        assetsDeleted: 0,
        assetsUpdated: 0,
      });
      expect(await ids()).toEqual([kept, 'c'].sort());
    });
  });

  describe('maxDeletions', () => {
    beforeEach(async () => {
      await ingest(
        feed('nmap', { id: 'a', name: 'a' }, { id: 'b', name: 'b' }, { id: 'c', name: 'c' }),
      );
    });

    it('refuses an empty scan with deleteStale that would delete the feed: 409, nothing written', async () => {
      const before = await store();
      for (const dryRun of [false, true]) {
        const response = await post({
          options: { source: 'nmap', deleteStale: true, maxDeletions: 0, dryRun },
          assets: [],
        });
        expect(response.status).toBe(409);
        expectErrorBody(response, /would delete 3 assets, more than maxDeletions 0$/);
      }
      expect(await store()).toEqual(before);
    });

    it('allows as many deletions as the limit', async () => {
      const answer = await ingest({
        options: { source: 'nmap', deleteStale: true, maxDeletions: 2 },
        assets: [{ id: 'a', name: 'renamed' }],
      });
      expect(answer.stats).toMatchObject({ assetsDeleted: 2, assetsUpdated: 1 });
    });

    it('counts every stored asset for replace, before deleting any', async () => {
      await handMade({ name: 'hand-made' });
      const before = await store();
      const response = await post(
        { options: { mode: 'replace', maxDeletions: 3 }, assets: [{ id: 'x', name: 'x' }] },
        admin,
      );
      expect(response.status).toBe(409);
      expectErrorBody(response, /would delete 4 assets, more than maxDeletions 3$/);
      expect(await store()).toEqual(before);
      const answer = await ingest({ options: { mode: 'replace', maxDeletions: 4 } }, admin);
      expect(answer.stats).toMatchObject({ assetsDeleted: 4 });
    });

    it('does not limit a run that deletes nothing', async () => {
      const answer = await ingest({
        options: { source: 'nmap', deleteStale: true, maxDeletions: 0 },
        assets: [{ id: 'a' }, { id: 'b' }, { id: 'c' }],
      });
      expect(answer.stats).toMatchObject({ assetsDeleted: 0, assetsUnchanged: 3 });
    });
  });

  describe('matchBy', () => {
    it('["id"] creates an item whose id is not stored instead of matching it by ip', async () => {
      const router = await handMade({ name: 'router', ip: '10.0.0.1' });
      const answer = await ingest({
        options: { matchBy: ['id'], source: 'nmap' },
        assets: [{ id: 'scan-1', name: 'scanned', ip: '10.0.0.1' }],
      });
      expect(answer.stats).toMatchObject({ assetsCreated: 1, assetsUpdated: 0 });
      expect(await provenance(router)).toMatchObject({ name: 'router', sources: [] });
      expect(await provenance('scan-1')).toMatchObject({ name: 'scanned', origin: 'ingest' });
      // A stored id still matches.
      const again = await ingest({
        options: { matchBy: ['id'] },
        assets: [{ id: router, name: 'renamed' }],
      });
      expect(again.stats).toMatchObject({ assetsCreated: 0, assetsUpdated: 1 });
    });

    it('["id", "ip"], the default, matches by ip', async () => {
      const router = await handMade({ name: 'router', ip: '10.0.0.1' });
      for (const options of [{ matchBy: ['id', 'ip'] }, {}]) {
        const answer = await ingest({
          options,
          assets: [{ id: 'scan-1', ip: '10.0.0.1', vendor: 'v' }],
        });
        expect(answer.stats).toMatchObject({ assetsCreated: 0 });
      }
      expect(await ids()).toEqual([router]);
    });
  });

  describe('provenance', () => {
    it('an ingested asset: origin ingest, sources in the order feeds first named it, sightings', async () => {
      await ingest({ options: { source: 'nmap' }, assets: [{ id: 'a', name: 'a' }] });
      const first = (await provenance('a'))!;
      expect(first).toMatchObject({ origin: 'ingest', source: 'nmap', sources: ['nmap'] });
      expect(first.firstSeenAt).toBe(first.lastSeenAt);
      expect(first.firstSeenAt).toBe(first.updatedAt);

      const answer = await ingest({ options: { source: 'cmdb' }, assets: [{ id: 'a' }] });
      expect(answer.stats).toMatchObject({ assetsUpdated: 1 });
      const second = (await provenance('a'))!;
      expect(second).toMatchObject({ source: 'cmdb', sources: ['nmap', 'cmdb'] });
      expect(second.firstSeenAt).toBe(first.firstSeenAt);
      expect(second.lastSeenAt! > first.lastSeenAt!).toBe(true);

      // A feed back after removal goes last.
      await ingest(feed('nmap', { id: 'other', name: 'other' }));
      expect((await provenance('a'))!.sources).toEqual(['cmdb']);
      await ingest({ options: { source: 'nmap' }, assets: [{ id: 'a' }] });
      expect((await provenance('a'))!.sources).toEqual(['cmdb', 'nmap']);
    });

    it('without a source: origin ingest, no sources, no sightings; a sourced run’s untouched', async () => {
      await ingest({ assets: [{ id: 'a', name: 'a' }] });
      expect(await provenance('a')).toMatchObject({
        origin: 'ingest',
        source: null,
        sources: [],
        firstSeenAt: null,
        lastSeenAt: null,
      });
      await ingest({ options: { source: 'nmap' }, assets: [{ id: 'a' }] });
      const seen = (await provenance('a'))!;
      await ingest({ assets: [{ id: 'a' }] });
      expect(await provenance('a')).toEqual(seen);
    });

    it('the same merge twice: all unchanged, updatedAt kept, lastSeenAt moved', async () => {
      const body = {
        options: { source: 'nmap' },
        assets: [
          { id: 'a', name: 'a', ip: '10.0.0.1', vulnerabilities: [{ id: 'CVE-1', score: 5 }] },
          { id: 'b', name: 'b', ip: '10.0.0.2' },
          // No id: matched by its ip the second time.
          { name: 'c', ip: '10.0.0.3' },
        ],
        relations: [{ sourceAssetId: 'a', targetAssetId: 'b', type: 'link' }],
      };
      await ingest(body);
      const all = await ids();
      const snapshot = async () => Promise.all(all.map(async (id) => (await provenance(id))!));
      const before = await snapshot();
      const answer = await ingest(body);
      expect(answer.stats).toMatchObject({
        assetsCreated: 0,
        assetsUpdated: 0,
        assetsUnchanged: 3,
        relationsCreated: 0,
        relationsUpdated: 0,
        relationsUnchanged: 1,
        vulnerabilities: 0,
      });
      expect(answer.changes.assets.updated).toEqual([]);
      const after = await snapshot();
      after.forEach((asset, index) => {
        const { lastSeenAt, ...rest } = asset;
        const { lastSeenAt: lastBefore, ...restBefore } = before[index];
        expect(rest).toEqual(restBefore);
        expect(lastSeenAt! > lastBefore!).toBe(true);
      });
    });
  });
});
