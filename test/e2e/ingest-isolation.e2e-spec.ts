import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { IngestRun } from '../../src/ingest/ingest-run.js';
import { TestApp } from '../support/test-app.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

// Each kind of DATABASE_URL the service takes: sqlite::memory: (the default here) and a SQLite
// file, or PostgreSQL (both, when TEST_DATABASE_URL names one).
describe.each([
  { kind: 'the default test database', file: false },
  { kind: 'a database file (SQLite)', file: true },
])('an ingestion on $kind', ({ file }) => {
  let database: TestDatabase;
  let t: TestApp;
  let editor: string;

  beforeAll(async () => {
    database = await createTestDatabase({ file });
    t = await TestApp.start({}, database);
    editor = (await t.createUser('editor')).token;
  });
  afterAll(async () => {
    await t.close();
    await database.drop();
  });

  const ingest = (body: unknown) =>
    t.request('POST', '/api/integrations/ingest', { token: editor, body });
  const listed = async () => {
    const response = await t.request('GET', '/api/assets?limit=100&sort=name', { token: editor });
    expect(response.status).toBe(200);
    return response.body as unknown;
  };
  const assets = (from: number, to: number, name: string) =>
    Array.from({ length: to - from }, (_v, i) => ({ id: `iso-${from + i}`, name: `${name} ${i}` }));

  it('is seen by no other request before its commit', async () => {
    expect(
      (await ingest({ options: { source: 'iso' }, assets: assets(0, 10, 'before') })).status,
    ).toBe(200);
    const before = await listed();

    // Once the run has planned and written everything, and before the transaction commits, a
    // request served meanwhile reads the store.
    // eslint-disable-next-line @typescript-eslint/unbound-method -- called with its own run below
    const execute = IngestRun.prototype.execute;
    let during: unknown;
    const spy = jest.spyOn(IngestRun.prototype, 'execute').mockImplementationOnce(async function (
      this: IngestRun,
    ) {
      const counts = await execute.call(this);
      during = await listed();
      return counts;
    });
    try {
      const response = await ingest({
        options: { source: 'iso', deleteStale: true },
        assets: [...assets(0, 5, 'after'), ...assets(10, 20, 'new')],
        relations: [{ sourceAssetId: 'iso-0', targetAssetId: 'iso-10', type: 'link' }],
      });
      expect(response.status).toBe(200);
      expect(response.body.stats).toMatchObject({
        assetsCreated: 10,
        assetsUpdated: 5,
        assetsDeleted: 5,
        relationsCreated: 1,
      });
    } finally {
      spy.mockRestore();
    }
    expect(during).toEqual(before);
    expect(await listed()).not.toEqual(before);
  });
});
