import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Asset } from '../../src/database/entities/asset.entity.js';
import { ChangeSet } from '../../src/database/entities/change-set.entity.js';
import { Change } from '../../src/database/entities/change.entity.js';
import { ChangesRetention } from '../../src/changes/changes-retention.service.js';
import { InventoryWriter } from '../../src/database/writer/inventory-writer.js';
import { RecordIds } from '../../src/database/history/record-ids.js';
import { useIngestionApp } from '../support/ingest-helpers.js';
import { ADMIN_EMAIL, expectErrorBody, TestApp } from '../support/test-app.js';

const INGEST = '/api/integrations/ingest';

type Record_ = Record<string, any>;

/** Change history (section 14): what every write records, and the two lists. */
describe('change history', () => {
  let t: TestApp;
  let admin: string;
  let editor: string;
  let viewer: string;
  let adminId: string;

  useIngestionApp((app) => ({ t, admin, editor } = app), { emptyEach: true });

  beforeAll(async () => {
    viewer = (await t.createUser('viewer')).token;
    const me = await t.request('GET', '/api/auth/me', { token: admin });
    adminId = me.body.id as string;
  });

  const changes = async (query = '', token = admin) => {
    const response = await t.request('GET', `/api/changes${query}`, { token });
    expect(response.status).toBe(200);
    // Written as JSON text by the service itself (toChangeJson).
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    return {
      list: response.body as Record_[],
      total: Number(response.headers.get('x-total-count')),
    };
  };
  const assetChanges = async (id: string, query = '', token = viewer) => {
    const response = await t.request(
      'GET',
      `/api/assets/${encodeURIComponent(id)}/changes${query}`,
      {
        token,
      },
    );
    expect(response.status).toBe(200);
    // Written as JSON text by the service itself (toChangeJson).
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    return {
      list: response.body as Record_[],
      total: Number(response.headers.get('x-total-count')),
    };
  };
  /** The newest thousand records. */
  const all = async () => (await changes('?limit=1000')).list;
  const ingest = async (body: object, token = admin) => {
    const response = await t.request('POST', INGEST, { token, body });
    expect(response.status).toBe(200);
    return response.body as Record_;
  };
  const write = async (
    method: string,
    path: string,
    body?: object,
    token = admin,
    headers: Record<string, string> = {},
  ) => {
    const response = await t.request(method, path, { token, body, headers });
    expect(response.status).toBeLessThan(300);
    return response;
  };
  const count = async () => (await changes('?limit=1')).total;

  describe('assets', () => {
    it('records create, update (changed fields only) and delete, readable after the delete', async () => {
      const created = await write(
        'POST',
        '/api/assets',
        { name: 'web', ip: '10.0.0.5', risk_score: 40, services: [{ port: 443, protocol: 'tcp' }] },
        editor,
        { 'x-request-id': 'req-create-0001' },
      );
      const id = created.body.id as string;
      await write('PUT', `/api/assets/${id}`, { risk_score: 90, site: 'dc1' }, editor);
      // Nothing but updatedAt moves: no record.
      await write('PUT', `/api/assets/${id}`, { risk_score: 90 }, editor);
      await write('PUT', `/api/assets/${id}`, { services: [] }, editor);
      await write('DELETE', `/api/assets/${id}`, undefined, editor);

      const { list, total } = await assetChanges(id);
      expect(total).toBe(4);
      expect(list.map((change) => change.action)).toEqual(['delete', 'update', 'update', 'create']);
      const [deleted, servicesCleared, updated, create] = list;

      expect(create).toMatchObject({
        objectType: 'asset',
        objectId: id,
        requestId: 'req-create-0001',
        runId: null,
        before: null,
        after: created.body,
      });
      expect(create.actor).toMatchObject({ apiKeyId: null, apiKeyPrefix: null });
      expect(create.actor.email).toMatch(/^editor-/);
      expect(Date.parse(create.time)).not.toBeNaN();

      expect(updated.before).toEqual({ risk_score: 40, site: null });
      expect(updated.after).toEqual({ risk_score: 90, site: 'dc1' });
      expect(servicesCleared.before).toEqual({
        services: [{ port: 443, protocol: 'tcp', name: null, product: null, version: null }],
      });
      expect(servicesCleared.after).toEqual({ services: [] });
      expect(deleted.after).toBeNull();
      expect(deleted.before).toMatchObject({
        id,
        name: 'web',
        risk_score: 90,
        site: 'dc1',
        services: [],
      });

      // The asset is gone; its history is not.
      expect((await t.request('GET', `/api/assets/${id}`, { token: viewer })).status).toBe(404);
    });

    it('answers 404 for an id that names no asset and never did', async () => {
      const response = await t.request('GET', '/api/assets/no-such-asset/changes', {
        token: viewer,
      });
      expect(response.status).toBe(404);
      expectErrorBody(response, /no-such-asset/);
    });

    it('records the relations a deleted asset takes with it', async () => {
      const a = (await write('POST', '/api/assets', { name: 'a' })).body.id as string;
      const b = (await write('POST', '/api/assets', { name: 'b' })).body.id as string;
      const relation = await write('POST', '/api/relations', {
        sourceAssetId: a,
        targetAssetId: b,
        type: 'link',
      });
      await write('DELETE', `/api/assets/${a}`);
      const { list } = await changes(`?objectType=relation&objectId=${relation.body.id}`);
      expect(list.map((change) => change.action)).toEqual(['delete', 'create']);
      expect(list[0].before).toEqual(relation.body);
    });
  });

  it('records relations, diagrams, users and API keys, without secrets', async () => {
    const a = (await write('POST', '/api/assets', { name: 'a' })).body.id as string;
    const b = (await write('POST', '/api/assets', { name: 'b' })).body.id as string;
    const relation = (
      await write('POST', '/api/relations', { sourceAssetId: a, targetAssetId: b, type: 'link' })
    ).body;
    await write('PUT', `/api/relations/${relation.id}`, { protocol: 'tcp' });
    await write('DELETE', `/api/relations/${relation.id}`);
    const relationChanges = (await changes(`?objectId=${relation.id}`)).list;
    expect(relationChanges.map((change) => change.action)).toEqual(['delete', 'update', 'create']);
    expect(relationChanges[1]).toMatchObject({
      before: { protocol: null },
      after: { protocol: 'tcp' },
    });

    const diagram = (await write('POST', '/api/diagrams', { name: 'net', content: { nodes: [1] } }))
      .body;
    await write('PUT', `/api/diagrams/${diagram.id}`, { name: 'network' });
    await write('DELETE', `/api/diagrams/${diagram.id}`);
    const diagramChanges = (await changes(`?objectType=diagram&objectId=${diagram.id}`)).list;
    expect(diagramChanges.map((change) => change.action)).toEqual(['delete', 'update', 'create']);
    expect(diagramChanges[2].after).toEqual(diagram);
    expect(diagramChanges[1]).toMatchObject({
      before: { name: 'net' },
      after: { name: 'network' },
    });

    const password = 'a-first-password-123';
    const user = (
      await write('POST', '/api/users', {
        email: 'history@example.com',
        name: 'H',
        password,
        role: 'editor',
      })
    ).body;
    await write('PUT', `/api/users/${user.id}`, { password: 'a-second-password-123' });
    const userToken = await t.login('history@example.com', 'a-second-password-123');
    const key = (await write('POST', '/api/auth/api-keys', { name: 'ci' }, userToken)).body;
    // The key changes the user's own password: the actor is the key.
    await write(
      'POST',
      '/api/auth/password',
      { currentPassword: 'a-second-password-123', newPassword: 'a-third-password-123' },
      key.key,
    );
    await write('DELETE', `/api/users/${user.id}`);

    const userChanges = (await changes(`?objectType=user&objectId=${user.id}`)).list;
    expect(userChanges.map((change) => change.action)).toEqual([
      'delete',
      'update',
      'update',
      'create',
    ]);
    expect(userChanges[3].after).toEqual(user);
    expect(userChanges[2]).toMatchObject({
      before: { passwordChanged: false },
      after: { passwordChanged: true },
      actor: { userId: adminId, email: ADMIN_EMAIL },
    });
    expect(userChanges[1].actor).toEqual({
      userId: user.id,
      email: 'history@example.com',
      apiKeyId: key.id,
      apiKeyPrefix: key.prefix,
    });
    const keyChanges = (await changes(`?objectType=apiKey&objectId=${key.id}`)).list;
    // Created by the user, deleted with the user.
    expect(keyChanges.map((change) => change.action)).toEqual(['delete', 'create']);
    expect(keyChanges[1].after).toEqual({ ...key, key: undefined });

    const everything = JSON.stringify(await all());
    expect(everything).not.toContain(key.key);
    expect(everything).not.toContain(key.key.slice(key.prefix.length + 1));
    expect(everything).not.toMatch(/password_?hash|\$argon2|keyHash|key_hash/i);
    expect(everything).not.toContain(password);
  });

  describe('the list', () => {
    it('filters, pages newest first, and counts the total', async () => {
      const before = new Date().toISOString();
      const ids: string[] = [];
      for (const name of ['one', 'two', 'three']) {
        ids.push((await write('POST', '/api/assets', { name }, editor)).body.id as string);
      }
      const run = await ingest({ options: { source: 'scan' }, assets: [{ id: 'x', name: 'x' }] });

      const page = await changes(`?objectType=asset&since=${encodeURIComponent(before)}&limit=2`);
      expect(page.total).toBe(4);
      expect(page.list.map((change) => change.objectId)).toEqual(['x', ids[2]]);
      const next = await changes(
        `?objectType=asset&since=${encodeURIComponent(before)}&limit=2&offset=2`,
      );
      expect(next.list.map((change) => change.objectId)).toEqual([ids[1], ids[0]]);

      const byRun = await changes(`?runId=${run.runId}`);
      expect(byRun.total).toBe(1);
      expect(byRun.list[0]).toMatchObject({ runId: run.runId, objectId: 'x', action: 'create' });
      expect(byRun.list[0].actor.userId).toBe(adminId);

      const byEditor = await changes(
        `?actorId=${page.list[1].actor.userId}&since=${encodeURIComponent(before)}`,
      );
      expect(byEditor.list.map((change) => change.objectId)).toEqual([...ids].reverse());
      expect((await changes(`?objectId=${ids[1]}`)).list).toHaveLength(1);
      expect((await changes(`?until=${encodeURIComponent(before)}&objectId=${ids[1]}`)).total).toBe(
        0,
      );
    });

    it('filters by time to the millisecond, also records whose id was taken after their time', async () => {
      const set = await t.dataSource.getRepository(ChangeSet).save({
        actor: { userId: adminId, email: ADMIN_EMAIL, apiKeyId: null, apiKeyPrefix: null },
        requestId: 'bounds',
        runId: null,
      });
      const at = (ms: number) => new Date(Date.UTC(2026, 10, 20, 10, 0, 0, ms));
      const record = (id: string, time: Date) => ({
        id,
        time,
        action: 'update' as const,
        objectType: 'asset' as const,
        objectId: 'bounds',
        changeSetId: set.id,
        before: '{}',
        after: '{}',
      });
      await t.dataSource.getRepository(Change).insert([
        record(new RecordIds(at(0)).next(), at(0)),
        record(new RecordIds(at(1)).next(), at(1)),
        // As records were written before ids carried their time: the id a few ms after it.
        record(new RecordIds(at(7)).next(), at(2)),
        record(new RecordIds(at(3)).next(), at(3)),
      ]);
      const total = async (query: string) => (await changes(`?objectId=bounds&${query}`)).total;
      expect(await total(`since=${at(1).toISOString()}`)).toBe(3);
      expect(await total(`since=${at(2).toISOString()}`)).toBe(2);
      expect(await total(`until=${at(1).toISOString()}`)).toBe(1);
      expect(await total(`until=${at(3).toISOString()}`)).toBe(3);
      expect(await total(`since=${at(1).toISOString()}&until=${at(3).toISOString()}`)).toBe(2);
    });

    it.each([
      ['limit=0', /limit/],
      ['limit=1001', /limit/],
      ['offset=-1', /offset/],
      ['objectType=widget', /objectType/],
      ['since=yesterday', /since/],
      ['until=2026-13-01', /until/],
      ['colour=red', /colour/],
    ])('refuses %s with a 400 naming it', async (query, field) => {
      const response = await t.request('GET', `/api/changes?${query}`, { token: admin });
      expect(response.status).toBe(400);
      expectErrorBody(response, field);
    });

    it('is for admins; an asset changes are for whoever may read assets', async () => {
      const id = (await write('POST', '/api/assets', { name: 'seen' }, editor)).body.id as string;
      for (const token of [editor, viewer]) {
        const response = await t.request('GET', '/api/changes', { token });
        expect(response.status).toBe(403);
        expectErrorBody(response);
      }
      expect((await t.request('GET', '/api/changes')).status).toBe(401);
      expect((await assetChanges(id, '', viewer)).total).toBe(1);
      expect((await t.request('GET', `/api/assets/${id}/changes`)).status).toBe(401);
      const bad = await t.request('GET', `/api/assets/${id}/changes?limit=0`, { token: viewer });
      expect(bad.status).toBe(400);
      expectErrorBody(bad, /limit/);
    });
  });

  describe('ingestion', () => {
    it('records what the run changed, with its run id; an unchanged repeat records nothing', async () => {
      const body = {
        options: { source: 'nmap' },
        assets: [
          { id: 'fw', name: 'fw', ip: '10.0.0.1', vulnerabilities: [{ id: 'CVE-1', score: 9.8 }] },
          { id: 'db', name: 'db', services: [{ port: 5432, protocol: 'tcp', name: 'postgresql' }] },
        ],
        relations: [{ sourceAssetId: 'fw', targetAssetId: 'db', type: 'link' }],
      };
      const first = await ingest(body, editor);
      const records = (await changes(`?runId=${first.runId}`)).list;
      // The two assets, the relation and the finding of fw's vulnerability.
      expect(records).toHaveLength(4);
      expect(records.filter((change) => change.objectType === 'finding')).toMatchObject([
        { action: 'create', after: { assetId: 'fw', vulnId: 'CVE-1', status: 'open' } },
      ]);
      const fw = records.find((change) => change.objectId === 'fw')!;
      const shown = (await t.request('GET', '/api/assets/fw', { token: viewer })).body;
      expect(fw).toMatchObject({ action: 'create', before: null, runId: first.runId });
      // The API's answer exactly: lists, source, sightings and timestamps included.
      expect(fw.after).toEqual(shown);
      const db = records.find((change) => change.objectId === 'db')!;
      expect(db.after).toEqual((await t.request('GET', '/api/assets/db', { token: viewer })).body);
      const relation = records.find((change) => change.objectType === 'relation')!;
      const relations = await t.request('GET', '/api/relations', { token: viewer });
      expect(relation.after).toEqual(relations.body[0]);

      const total = await count();
      const repeat = await ingest(body, editor);
      expect(repeat.stats).toMatchObject({ assetsUnchanged: 2, relationsUnchanged: 1 });
      expect(await count()).toBe(total);

      const changed = await ingest(
        {
          options: { source: 'nmap' },
          assets: [
            {
              id: 'fw',
              name: 'fw',
              ip: '10.0.0.1',
              risk_score: 70,
              vulnerabilities: [{ id: 'CVE-2', score: 5 }],
            },
          ],
        },
        editor,
      );
      const changedRecords = (await changes(`?runId=${changed.runId}`)).list;
      // The asset's update, CVE-2's finding opened, CVE-1's fixed (the feed no longer lists it).
      expect(changedRecords.map((change) => [change.objectType, change.action])).toEqual([
        ['finding', 'update'],
        ['finding', 'create'],
        ['asset', 'update'],
      ]);
      expect(changedRecords[0]).toMatchObject({
        before: { status: 'open', fixedAt: null },
        after: { status: 'fixed', fixedAt: expect.any(String) },
      });
      const update = changedRecords[2];
      expect(update.before).toEqual({
        risk_score: null,
        vulnerabilities: [{ id: 'CVE-1', score: 9.8, summary: null, publishedDate: null }],
      });
      expect(update.after).toEqual({
        risk_score: 70,
        vulnerabilities: [{ id: 'CVE-2', score: 5, summary: null, publishedDate: null }],
      });
    });

    it('records the creations of a run without a source as the API shows them', async () => {
      const run = await ingest({
        options: { mode: 'append' },
        assets: [
          { id: 'lab', name: 'lab', vulnerabilities: [{ id: 'CVE-3', score: 2 }] },
          { id: 'bench', name: 'bench' },
        ],
        relations: [{ sourceAssetId: 'lab', targetAssetId: 'bench', type: 'link' }],
      });
      const records = (await changes(`?runId=${run.runId}`)).list;
      const lab = (await t.request('GET', '/api/assets/lab', { token: viewer })).body;
      expect(lab).toMatchObject({ source: null, sources: [], firstSeenAt: null, lastSeenAt: null });
      expect(records.find((change) => change.objectId === 'lab')!.after).toEqual(lab);
      const [relation] = (await t.request('GET', '/api/relations', { token: viewer })).body;
      expect(records.find((change) => change.objectType === 'relation')!.after).toEqual(relation);
    });

    it('writes its pages as compact JSON, creation copies read live or kept alike', async () => {
      await ingest({
        assets: [
          {
            id: 'lab',
            name: 'lab',
            vulnerabilities: [{ id: 'CVE-3', score: 2, summary: 'a "b" c' }],
            services: [{ port: 22, protocol: 'tcp', name: 'ssh' }],
          },
          { id: 'bench', name: 'bench' },
        ],
        relations: [{ sourceAssetId: 'lab', targetAssetId: 'bench', type: 'link' }],
      });
      /** The page's text with its strings taken out: no space is left between its tokens. */
      const outsideStrings = async (path: string) => {
        const response = await fetch(`${t.baseUrl}${path}`, {
          headers: { authorization: `Bearer ${admin}` },
        });
        return (await response.text()).replace(/"(?:[^"\\]|\\.)*"/g, '""');
      };
      const live = await outsideStrings('/api/assets/lab/changes');
      expect(live).toContain('"":[{"":""');
      expect(live).not.toMatch(/\s/);
      // The PUT and the relation's delete keep the creations' copies.
      await write('PUT', '/api/assets/lab', { risk_score: 5 });
      const [relation] = (await t.request('GET', '/api/relations', { token: viewer })).body;
      await write('DELETE', `/api/relations/${relation.id}`);
      expect(await outsideStrings('/api/changes?limit=1000')).not.toMatch(/\s/);
    });

    it("shows a creation as it was, after later writes, a delete and the id's reuse", async () => {
      const body = {
        options: { source: 'nmap' },
        assets: [
          {
            id: 'gw',
            name: 'gw',
            ip: '10.0.0.1',
            vulnerabilities: [{ id: 'CVE-1', score: 9.8 }],
            services: [{ port: 22, protocol: 'tcp', name: 'ssh' }],
          },
          { id: 'store', name: 'store' },
        ],
        relations: [{ sourceAssetId: 'gw', targetAssetId: 'store', type: 'link' }],
      };
      const first = await ingest(body, editor);
      const gwThen = (await t.request('GET', '/api/assets/gw', { token: viewer })).body;
      const [relationThen] = (await t.request('GET', '/api/relations', { token: viewer })).body;
      const creationOf = async (objectId: string, runId: string) => {
        const { list } = await changes(`?runId=${runId}&objectId=${objectId}`);
        return list.find((change) => change.action === 'create')!.after as Record_;
      };

      await write('PUT', '/api/assets/gw', { name: 'firewall', risk_score: 90 }, editor);
      await write('PUT', `/api/relations/${relationThen.id}`, { direction: 'mono' }, editor);
      // Another feed: other vulnerabilities and a second source; then the first feed again.
      await ingest(
        {
          options: { source: 'nessus' },
          assets: [
            {
              id: 'gw',
              name: 'firewall',
              ip: '10.0.0.1',
              risk_score: 90,
              vulnerabilities: [{ id: 'CVE-2', score: 5 }],
            },
          ],
        },
        editor,
      );
      await ingest(
        { options: { source: 'nmap' }, assets: [{ id: 'gw', name: 'firewall', ip: '10.0.0.1' }] },
        editor,
      );
      const gwNow = (await t.request('GET', '/api/assets/gw', { token: viewer })).body;
      expect(gwNow).not.toEqual(gwThen);
      expect(await creationOf('gw', first.runId)).toEqual(gwThen);
      expect(await creationOf(relationThen.id, first.runId)).toEqual(relationThen);
      // The asset's own list, on its first page and on a later one.
      const history = await assetChanges('gw');
      expect(history.list.at(-1)).toMatchObject({ action: 'create', after: gwThen });
      const oldest = await assetChanges('gw', `?limit=1&offset=${history.total - 1}`);
      expect(oldest.list).toEqual([history.list.at(-1)]);

      // Deleted (the relation with it), then an asset of the same id created again.
      await write('DELETE', '/api/assets/gw', undefined, editor);
      const again = await ingest({
        options: { source: 'csv' },
        assets: [{ id: 'gw', name: 'new' }],
      });
      expect(await creationOf('gw', first.runId)).toEqual(gwThen);
      expect(await creationOf(relationThen.id, first.runId)).toEqual(relationThen);
      const gwAgain = (await t.request('GET', '/api/assets/gw', { token: viewer })).body;
      expect(await creationOf('gw', again.runId)).toEqual(gwAgain);
      const creations = (await assetChanges('gw')).list.filter((c) => c.action === 'create');
      expect(creations.map((change) => change.after)).toEqual([gwAgain, gwThen]);
    });

    it('shows a creation as it was through every write an ingestion makes after it', async () => {
      const asset = (id: string, extra: object = {}) => ({ id, name: id, ...extra });
      const link = (from: string, to: string, extra: object = {}) => ({
        sourceAssetId: from,
        targetAssetId: to,
        type: 'link',
        ...extra,
      });
      const body = {
        options: { source: 'nmap' },
        assets: [
          asset('a1', {
            ip: '10.0.0.1',
            vulnerabilities: [{ id: 'CVE-1', score: 7.5, publishedDate: '2024-01-02' }],
            services: [{ port: 443, protocol: 'tcp', name: 'https' }],
          }),
          asset('a2'),
          asset('a3'),
          asset('a4'),
        ],
        relations: [
          link('a1', 'a2'),
          link('a2', 'a3'),
          link('a3', 'a4'),
          link('a1', 'a4'),
          link('a2', 'a4'),
          link('a4', 'a2'),
        ],
      };
      const first = await ingest(body, editor);
      const shown = async () => ({
        assets: Object.fromEntries(
          await Promise.all(
            ['a1', 'a2', 'a3', 'a4'].map(async (id) => [
              id,
              (await t.request('GET', `/api/assets/${id}`, { token: viewer })).body,
            ]),
          ),
        ) as Record_,
        relations: (await t.request('GET', '/api/relations', { token: viewer })).body as Record_[],
      });
      const then = await shown();
      const creations = async () =>
        Object.fromEntries(
          (await changes(`?runId=${first.runId}&limit=1000`)).list.map((change) => [
            change.objectId,
            change.after,
          ]),
        ) as Record_;
      // The finding of a1's vulnerability, as created: open, seen once, reported by the feed.
      const findingThen = Object.values(await creations()).find(
        (after) => after.vulnId === 'CVE-1',
      )!;
      expect(findingThen).toEqual({
        id: expect.any(String),
        assetId: 'a1',
        vulnId: 'CVE-1',
        score: 7.5,
        severity: 'high',
        summary: null,
        publishedDate: '2024-01-02',
        status: 'open',
        sources: ['nmap'],
        firstSeenAt: then.assets.a1.firstSeenAt,
        lastSeenAt: then.assets.a1.firstSeenAt,
        fixedAt: null,
        reopenedAt: null,
        reopenCount: 0,
        reason: null,
        acceptedUntil: null,
        triagedBy: null,
      });
      const expected = Object.fromEntries([
        ...Object.entries(then.assets),
        ...then.relations.map((relation): [string, Record_] => [relation.id, relation]),
        [findingThen.id as string, findingThen],
      ]);
      expect(await creations()).toEqual(expected);

      // A repeat moves the sightings and the update times, unrecorded.
      await ingest(body, editor);
      const repeated = await shown();
      expect(repeated.assets.a2.lastSeenAt).not.toBe(then.assets.a2.lastSeenAt);
      expect(await creations()).toEqual(expected);

      // An update of an asset and of a relation, a stale asset (a3, with its two relations) and
      // a stale relation (a1 to a4) deleted.
      await ingest(
        {
          options: { source: 'nmap', deleteStale: true },
          assets: [asset('a1', { ip: '10.0.0.1', risk_score: 80 }), asset('a2'), asset('a4')],
          relations: [link('a1', 'a2', { protocol: 'tcp' }), link('a2', 'a4'), link('a4', 'a2')],
        },
        editor,
      );
      const after = await shown();
      expect(after.assets.a1).not.toEqual(then.assets.a1);
      expect(after.relations).toHaveLength(3);
      const updated = after.relations.find((r) => r.targetAssetId === 'a2' && r.protocol);
      expect(updated).toMatchObject({ sourceAssetId: 'a1', protocol: 'tcp' });
      expect(await creations()).toEqual(expected);

      // A manual relation delete, then a replace deleting the rest.
      const manual = after.relations.find((r) => r.sourceAssetId === 'a2')!;
      await write('DELETE', `/api/relations/${manual.id}`, undefined, editor);
      await ingest({ options: { mode: 'replace' }, assets: [asset('a5')] });
      expect((await t.request('GET', '/api/assets/a2', { token: viewer })).status).toBe(404);
      expect(await creations()).toEqual(expected);
    });

    it('records nothing for a dry run, a rejected run, or a run refused by maxDeletions', async () => {
      await ingest({ assets: [{ id: 'keep', name: 'keep' }] });
      const total = await count();
      const dry = await ingest({ options: { dryRun: true }, assets: [{ id: 'n', name: 'n' }] });
      expect(dry.stats.assetsCreated).toBe(1);
      // Many valid items first, so that earlier slices are written before the bad one.
      const assets = Array.from({ length: 3000 }, (_v, i) => ({ id: `r${i}`, name: `r${i}` }));
      const rejected = await t.request('POST', INGEST, {
        token: admin,
        body: { assets: [...assets, { id: 'bad', name: '' }] },
      });
      expect(rejected.status).toBe(400);
      const refused = await t.request('POST', INGEST, {
        token: admin,
        body: { options: { mode: 'replace', maxDeletions: 0 }, assets: [] },
      });
      expect(refused.status).toBe(409);
      expect(await count()).toBe(total);
      expect((await t.request('GET', '/api/assets/r0', { token: viewer })).status).toBe(404);
    });

    it('records exactly what the stats of a 5,000-item run count', async () => {
      const assets = (from: number, to: number, extra: object = {}) =>
        Array.from({ length: to - from }, (_v, i) => ({
          id: `h${from + i}`,
          name: `host ${from + i}`,
          ip: `10.${(from + i) >> 16}.${((from + i) >> 8) & 255}.${(from + i) & 255}`,
          ...extra,
        }));
      const chain = (ids: number[]) =>
        ids.slice(1).map((n, i) => ({
          sourceAssetId: `h${ids[i]}`,
          targetAssetId: `h${n}`,
          type: 'link',
        }));
      const first = await ingest({
        options: { source: 'scan' },
        assets: assets(0, 4000),
        relations: chain(Array.from({ length: 1000 }, (_v, i) => i * 4)),
      });
      // 3000 kept (1000 of them changed), 1000 stale, 1000 new; relations updated and created.
      const second = await ingest({
        options: { source: 'scan', deleteStale: true },
        assets: [
          ...assets(0, 1000, { site: 'moved' }),
          ...assets(1000, 3000),
          ...assets(4000, 5000),
        ],
        relations: [
          ...chain(Array.from({ length: 250 }, (_v, i) => i * 4)).map((relation) => ({
            ...relation,
            protocol: 'tcp',
          })),
          ...chain(Array.from({ length: 500 }, (_v, i) => 4000 + i)),
        ],
      });
      for (const run of [first, second]) {
        const records = (await changes(`?runId=${run.runId}&limit=1`)).total;
        const tally = (objectType: string, action: string) =>
          countOf(run.runId as string, objectType, action);
        const expected = {
          assetsCreated: await tally('asset', 'create'),
          assetsUpdated: await tally('asset', 'update'),
          assetsDeleted: await tally('asset', 'delete'),
          relationsCreated: await tally('relation', 'create'),
          relationsUpdated: await tally('relation', 'update'),
          relationsDeleted: await tally('relation', 'delete'),
        };
        expect(run.stats).toMatchObject(expected);
        const { stats } = run;
        expect(records).toBe(
          stats.assetsCreated +
            stats.assetsUpdated +
            stats.assetsDeleted +
            stats.relationsCreated +
            stats.relationsUpdated +
            stats.relationsDeleted,
        );
      }
      expect(second.stats).toMatchObject({
        assetsCreated: 1000,
        assetsUpdated: 1000,
        assetsDeleted: 1000,
        relationsUpdated: 249,
      });
      expect(second.stats.relationsCreated).toBeGreaterThan(0);
      expect(second.stats.relationsDeleted).toBeGreaterThan(0);
    });

    /** How many records of one run, object type and action (paged through the list). */
    const countOf = async (runId: string, objectType: string, action: string) => {
      let n = 0;
      for (let offset = 0; ; offset += 1000) {
        const { list } = await changes(
          `?runId=${runId}&objectType=${objectType}&limit=1000&offset=${offset}`,
        );
        n += list.filter((change) => change.action === action).length;
        if (list.length < 1000) return n;
      }
    };

    it('records the deletes of a replace, with what they were', async () => {
      await ingest({ assets: [{ id: 'gone', name: 'gone', vulnerabilities: [{ id: 'CVE-9' }] }] });
      const shown = (await t.request('GET', '/api/assets/gone', { token: viewer })).body;
      const run = await ingest({ options: { mode: 'replace' }, assets: [] });
      const [deleted] = (await changes(`?runId=${run.runId}`)).list;
      expect(deleted).toMatchObject({
        action: 'delete',
        objectId: 'gone',
        after: null,
        before: shown,
      });
    });
  });

  it('leaves no record of a write that is rolled back', async () => {
    const writer = t.app.get(InventoryWriter);
    const total = await count();
    const origin = {
      caller: {
        userId: adminId,
        email: ADMIN_EMAIL,
        name: 'Administrator',
        role: 'admin' as never,
        apiKeyId: null,
        apiKeyPrefix: null,
        key: null,
      },
      requestId: 'rolled-back-1',
      runId: null,
    };
    await expect(
      writer.write(origin, async (unit) => {
        await unit.manager
          .getRepository(Asset)
          .insert({ id: 'never', name: 'never', createdAt: new Date(), updatedAt: new Date() });
        unit.record({
          action: 'create',
          objectType: 'asset',
          objectId: 'never',
          before: null,
          after: {},
        });
        throw new Error('the write fails after its record');
      }),
    ).rejects.toThrow('the write fails after its record');
    expect(await count()).toBe(total);
    expect(await t.dataSource.getRepository(Asset).existsBy({ id: 'never' })).toBe(false);
  });

  it('removes records past their retention in batches, with the change sets they leave empty', async () => {
    const repository = t.dataSource.getRepository(Change);
    const sets = t.dataSource.getRepository(ChangeSet);
    const origin = {
      actor: { userId: adminId, email: ADMIN_EMAIL, apiKeyId: null, apiKeyPrefix: null },
      runId: null,
    };
    // One set wholly past its retention, one with a record still kept.
    const expired = await sets.save({ ...origin, requestId: 'old-request' });
    const kept = await sets.save({ ...origin, requestId: 'old-and-new-request' });
    const record = (id: string, time: Date, changeSetId: number) => ({
      id,
      time,
      action: 'update' as const,
      objectType: 'asset' as const,
      objectId: 'old',
      changeSetId,
      before: '{}',
      after: '{}',
    });
    const old = new Date('2020-01-01T00:00:00Z');
    await repository.insert([
      ...Array.from({ length: 4 }, (_v, i) =>
        record(`00000000-0000-7000-8000-00000000000${i}`, old, expired.id),
      ),
      record('00000000-0000-7000-8000-000000000004', old, kept.id),
      record('00000000-0000-7000-8000-000000000005', new Date(), kept.id),
    ]);
    const total = await count();
    const removed = await t.app.get(ChangesRetention).removeOlderThan(new Date('2021-01-01Z'), 2);
    expect(removed).toBe(5);
    expect(await count()).toBe(total - 5);
    expect(await sets.existsBy({ id: expired.id })).toBe(false);
    expect(await sets.existsBy({ id: kept.id })).toBe(true);
  });
});

describe('log lines', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await TestApp.start({}, undefined, { jsonLogs: true });
  });
  afterAll(async () => {
    await t.close();
  });

  it('name the actor of each request, and sum up each ingestion', async () => {
    const admin = await t.login();
    const key = (
      await t.request('POST', '/api/auth/api-keys', { token: admin, body: { name: 'log' } })
    ).body;
    const run = await t.request('POST', INGEST, {
      token: key.key,
      body: { options: { source: 'feed' }, assets: [{ id: 'a', name: 'a' }] },
    });
    expect(run.status).toBe(200);
    const requests = t.logEntries('request');
    const ingestLine = requests.find((line) => line.route === INGEST)!;
    expect(ingestLine).toMatchObject({ apiKeyPrefix: key.prefix });
    expect(typeof ingestLine.userId).toBe('string');
    const login = requests.find((line) => line.route === '/api/auth/login')!;
    expect(login).toMatchObject({ userId: null, apiKeyPrefix: null });
    const [summary] = t.logEntries('ingestion');
    expect(summary).toMatchObject({
      runId: run.body.runId,
      mode: 'merge',
      source: 'feed',
      dryRun: false,
      stats: { assetsCreated: 1 },
    });
  });
});
