import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { assetCalls, identifierRows } from '../support/asset-calls.js';
import { expectErrorBody, TestApp } from '../support/test-app.js';
import { sendScannerBody } from '../support/ingest-helpers.js';

const INGEST = '/api/integrations/ingest';
const TAG_RULE = 'must be 1 to 64 printable characters without white space';

describe('asset tags', () => {
  let t: TestApp;
  let editor: string;
  let admin: string;

  const calls = assetCalls(() => ({ t, token: editor }));
  const { create, put, get, ingest } = calls;
  const history = async (id: string) =>
    (await t.request('GET', `/api/assets/${id}/changes`, { token: admin })).body as Record<
      string,
      any
    >[];
  /** The asset's tag rows in asset_identifiers, sorted. */
  const tagRows = async (id: string) =>
    (await identifierRows(t, id))
      .filter((row) => row.startsWith('tag '))
      .map((row) => row.slice('tag '.length));

  beforeAll(async () => {
    t = await TestApp.start();
    editor = (await t.createUser('editor')).token;
    admin = await t.login();
  });
  afterAll(async () => {
    await t.close();
  });

  it('shows an empty list on an asset created without tags', async () => {
    const bare = await create({ name: 'bare' });
    expect(bare.tags).toEqual([]);
    expect(await tagRows(bare.id)).toEqual([]);
  });

  it('keeps the tags as given, a repeat left out, each indexed', async () => {
    const created = await create({
      name: 'edge',
      tags: ['internet', 'PCI', 'internet', 'say:"hi"', 'back\\slash', 'café'],
    });
    expect(created.tags).toEqual(['internet', 'PCI', 'say:"hi"', 'back\\slash', 'café']);
    expect(await get(created.id)).toEqual(created);
    expect(await tagRows(created.id)).toEqual(
      ['internet', 'PCI', 'say:"hi"', 'back\\slash', 'café'].sort(),
    );
  });

  it('on PUT: present replaces the list, absent keeps it, empty clears it', async () => {
    const { id } = await create({ name: 'laptop', tags: ['a', 'b'] });
    expect((await put(id, { name: 'laptop-2' })).tags).toEqual(['a', 'b']);
    expect((await put(id, { tags: ['c'] })).tags).toEqual(['c']);
    expect(await tagRows(id)).toEqual(['c']);
    expect((await put(id, { tags: [] })).tags).toEqual([]);
    expect(await tagRows(id)).toEqual([]);
  });

  it('refuses bad tags with 400 naming the entry, writing nothing', async () => {
    const { id } = await create({ name: 'guarded', tags: ['kept'] });
    const refusals: [object, string][] = [
      [{ tags: ['ok', 'ok2', 'ok3', 'two words'] }, `tags[3] ${TAG_RULE}`],
      [{ tags: [''] }, `tags[0] ${TAG_RULE}`],
      [{ tags: ['x'.repeat(65)] }, `tags[0] ${TAG_RULE}`],
      [{ tags: ['a\tb'] }, `tags[0] ${TAG_RULE}`],
      [{ tags: ['line\nbreak'] }, `tags[0] ${TAG_RULE}`],
      [{ tags: [7] }, `tags[0] ${TAG_RULE}`],
      [{ tags: 'internet' }, 'tags must be an array of at most 32 entries'],
      [{ tags: null }, 'tags must be an array of at most 32 entries'],
      [
        { tags: Array.from({ length: 33 }, (_, i) => `t${i}`) },
        'tags must be an array of at most 32 entries',
      ],
    ];
    for (const [body, error] of refusals) {
      const response = await t.request('PUT', `/api/assets/${id}`, { token: editor, body });
      expect([response.status, response.body.error]).toEqual([400, error]);
      expectErrorBody(response);
      const created = await t.request('POST', '/api/assets', {
        token: editor,
        body: { name: 'x', ...body },
      });
      expect([created.status, created.body.error]).toEqual([400, error]);
    }
    // 64 characters (one of them outside the BMP) and 32 tags are allowed.
    const longest = `${'y'.repeat(63)}😀`;
    expect((await put(id, { tags: [longest] })).tags).toEqual([longest]);
    const most = Array.from({ length: 32 }, (_, i) => `t${i}`);
    expect((await put(id, { tags: most })).tags).toEqual(most);
  });

  it('records tag changes in the change history', async () => {
    const { id } = await create({ name: 'tracked', tags: ['a'] });
    await put(id, { tags: ['a', 'internet'] });
    const update = (await history(id)).find((change) => change.action === 'update')!;
    expect(update.before).toEqual({ tags: ['a'] });
    expect(update.after).toEqual({ tags: ['a', 'internet'] });
  });

  it('takes tags on ingestion items: created, unchanged when sent again, replaced when given', async () => {
    const item = { id: 'ing-1', name: 'ingested', tags: ['internet', 'quote"d'] };
    const first = await ingest({ assets: [item] });
    expect(first.stats.assetsCreated).toBe(1);
    expect((await get('ing-1')).tags).toEqual(['internet', 'quote"d']);
    expect(await tagRows('ing-1')).toEqual(['internet', 'quote"d']);
    // The creation's record, made from the row by the database, shows them as the API does.
    const created = (await history('ing-1')).find((change) => change.action === 'create')!;
    expect(created.after.tags).toEqual(['internet', 'quote"d']);

    const again = await ingest({ assets: [item] });
    expect(again.stats).toMatchObject({ assetsUpdated: 0, assetsUnchanged: 1 });
    expect(again.changes.assets.updated).toEqual([]);

    const absent = await ingest({ assets: [{ id: 'ing-1', name: 'ingested' }] });
    expect(absent.stats).toMatchObject({ assetsUpdated: 0, assetsUnchanged: 1 });
    expect((await get('ing-1')).tags).toEqual(['internet', 'quote"d']);

    const retagged = await ingest({ assets: [{ id: 'ing-1', tags: ['dmz'] }] });
    expect(retagged.stats.assetsUpdated).toBe(1);
    expect(retagged.changes.assets.updated[0].fields).toEqual({
      tags: [['internet', 'quote"d'], ['dmz']],
    });
    expect(await tagRows('ing-1')).toEqual(['dmz']);
    const update = (await history('ing-1')).find((change) => change.action === 'update')!;
    expect([update.before.tags, update.after.tags]).toEqual([['internet', 'quote"d'], ['dmz']]);

    const dry = await ingest({ assets: [{ id: 'ing-1', tags: [] }], options: { dryRun: true } });
    expect(dry.stats.assetsUpdated).toBe(1);
    expect((await get('ing-1')).tags).toEqual(['dmz']);
  });

  it('refuses a bad tag on an ingestion item, naming it, writing nothing', async () => {
    const response = await t.request('POST', INGEST, {
      token: editor,
      body: {
        assets: [
          { id: 'ok-1', name: 'ok', tags: ['fine'] },
          { id: 'bad-1', name: 'bad', tags: ['fine', 'not fine'] },
        ],
      },
    });
    expect([response.status, response.body.error]).toEqual([400, `assets[1].tags[1] ${TAG_RULE}`]);
    expectErrorBody(response);
    expect((await t.request('GET', '/api/assets/ok-1', { token: editor })).status).toBe(404);
  });

  it('takes a CSV tags column, values separated by spaces, naming a bad one by its line', async () => {
    const csv = 'id,name,tags\ncsv-1,from csv,internet  dmz\ncsv-2,no tags,\n';
    const answer = await sendScannerBody(t, editor, csv, 'text/csv');
    expect([answer.status, answer.body.error]).toEqual([200, undefined]);
    expect((await get('csv-1')).tags).toEqual(['internet', 'dmz']);
    expect((await get('csv-2')).tags).toEqual([]);
    const again = await sendScannerBody(t, editor, csv, 'text/csv');
    expect(again.body.stats).toMatchObject({ assetsUpdated: 0, assetsUnchanged: 2 });

    const bad = await sendScannerBody(
      t,
      editor,
      `id,name,tags\ncsv-3,bad,ok ${'z'.repeat(65)}\n`,
      'text/csv',
    );
    expect([bad.status, bad.body.error]).toEqual([400, `line 2.tags[1] ${TAG_RULE}`]);
    expect((await t.request('GET', '/api/assets/csv-3', { token: editor })).status).toBe(404);
  });

  describe('the list filter tag', () => {
    const { listedIds: ids, exportedIds } = calls;

    beforeAll(async () => {
      await ingest({
        assets: [
          { id: 'g-a', name: 'gate a', type: 'firewall', tags: ['gate', 'internet', 'pci'] },
          { id: 'g-b', name: 'gate b', type: 'server', tags: ['gate', 'internet'] },
          { id: 'g-c', name: 'gate c', type: 'server', tags: ['gate', 'Internet', 'pci'] },
        ],
      });
    });

    it('finds the assets holding every tag asked, exactly, case included', async () => {
      expect(await ids('tag=gate')).toEqual(['g-a', 'g-b', 'g-c']);
      expect(await ids('tag=gate&tag=internet')).toEqual(['g-a', 'g-b']);
      expect(await ids('tag=gate&tag=internet&tag=pci')).toEqual(['g-a']);
      expect(await ids('tag=gate&tag=Internet')).toEqual(['g-c']);
      expect(await ids('tag=gate&tag=gate')).toEqual(['g-a', 'g-b', 'g-c']);
      expect(await ids('tag=gate&type=server')).toEqual(['g-b', 'g-c']);
      expect(await ids('tag=gate&tag=missing')).toEqual([]);
      expect(await ids(`tag=${encodeURIComponent('say:"hi"')}`)).toHaveLength(1);
      expect(await exportedIds('tag=gate&tag=pci')).toEqual(['g-a', 'g-c']);
    });

    it('keeps the tags in the next page link', async () => {
      const response = await t.request('GET', '/api/assets?limit=1&tag=gate&tag=internet', {
        token: editor,
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('link')).toMatch(/[?&]tag=gate&tag=internet&.*after=/);
    });

    it('refuses a malformed tag, or too many, with 400 naming the parameter', async () => {
      const refusals: [string, string][] = [
        ['tag=', `tag must be a tag: 1 to 64 printable characters without white space`],
        [
          `tag=gate&tag=${'x'.repeat(65)}`,
          `tag must be a tag: 1 to 64 printable characters without white space`,
        ],
        [
          Array.from({ length: 33 }, (_, i) => `tag=t${i}`).join('&'),
          'tag may be given at most 32 times',
        ],
      ];
      for (const [query, error] of refusals) {
        for (const path of ['/api/assets', '/api/assets/export']) {
          const response = await t.request('GET', `${path}?${query}`, { token: editor });
          expect([response.status, response.body.error]).toEqual([400, error]);
          expectErrorBody(response);
        }
      }
      // Other parameters are still taken once only.
      const twice = await t.request('GET', '/api/assets?tag=gate&type=a&type=b', {
        token: editor,
      });
      expect([twice.status, twice.body.error]).toEqual([400, 'type must be given once']);
    });
  });
});
