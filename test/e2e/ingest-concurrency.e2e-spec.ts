import { describe, expect, it } from '@jest/globals';
import { scannerPayload as bigPayload } from '../support/payloads.js';
import { useIngestionApp } from '../support/ingest-helpers.js';
import { expectErrorBody, TestApp } from '../support/test-app.js';
import { testingPostgres } from '../support/test-database.js';

describe('ingestion under load and failure', () => {
  let t: TestApp;
  let editor: string;

  const count = async (table: string) =>
    Number(
      (await t.dataSource.query<{ n: string | number }[]>(`SELECT COUNT(*) AS n FROM ${table}`))[0]
        .n,
    );

  useIngestionApp((app) => ({ t, editor } = app));

  // How long /api/health waits during an ingestion (under 250 ms) is measured by `npm run
  // bench`, not here: beside Jest, on a loaded machine, timings say little. What this guards
  // against is an ingestion that holds the event loop for its whole length: health answers,
  // one after the other, keep coming while it runs.
  it('keeps /api/health answering, and other requests served, during a large ingestion', async () => {
    const payload = bigPayload(20_000, 'big', 1);
    const ingestion = t.request('POST', '/api/integrations/ingest', {
      token: editor,
      body: payload,
    });
    let done = false;
    void ingestion.then(() => (done = true));

    let answered = 0;
    let written: Awaited<ReturnType<TestApp['request']>> | undefined;
    let listed: Awaited<ReturnType<TestApp['request']>> | undefined;
    while (!done) {
      const health = await t.request('GET', '/api/health');
      expect(health.status).toBe(200);
      answered++;
      if (!written && answered === 3) {
        // A write by another request meanwhile: neither refused as busy nor part of the ingestion
        // (an asset and its services, written in a transaction of their own).
        [written, listed] = await Promise.all([
          t.request('POST', '/api/assets', {
            token: editor,
            body: { name: 'written meanwhile', services: [{ port: 22, protocol: 'tcp' }] },
          }),
          t.request('GET', '/api/assets?limit=1', { token: editor }),
        ]);
      }
    }
    const response = await ingestion;
    expect(response.status).toBe(200);
    expect(response.body.stats).toMatchObject({
      assetsCreated: 20_000,
      relationsCreated: 19_999,
      vulnerabilities: 40_000,
    });
    expect(answered).toBeGreaterThanOrEqual(3);
    expect(written?.status).toBe(201);
    expect(listed?.status).toBe(200);
    expect(await count('assets')).toBe(20_001);
    expect(await count('findings')).toBe(40_000);
    expect(await count('services')).toBe(1);
  });

  it('applies two concurrent ingestions in full, one after the other', async () => {
    const [first, second] = await Promise.all([
      t.request('POST', '/api/integrations/ingest', {
        token: editor,
        body: bigPayload(500, 'one', 2),
      }),
      t.request('POST', '/api/integrations/ingest', {
        token: editor,
        body: bigPayload(500, 'two', 3),
      }),
    ]);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    for (const prefix of ['one', 'two']) {
      const rows = await t.dataSource.query<{ n: string | number }[]>(
        `SELECT COUNT(*) AS n FROM assets WHERE source = '${prefix}'`,
      );
      expect(Number(rows[0].n)).toBe(500);
    }
  });

  it('leaves the store exactly as before when the write fails midway', async () => {
    const before = {
      assets: await count('assets'),
      vulnerabilities: await count('findings'),
      relations: await count('relations'),
      updated: await t.dataSource.query('SELECT id, name, updated_at FROM assets ORDER BY id'),
    };
    // Relations are written after assets and vulnerabilities: fail on the last of them.
    if (testingPostgres()) {
      await t.dataSource.query(`CREATE FUNCTION fail_midway() RETURNS trigger AS $$
        BEGIN IF NEW.type = 'explode' THEN RAISE EXCEPTION 'injected failure'; END IF; RETURN NEW; END
        $$ LANGUAGE plpgsql`);
      await t.dataSource.query(
        'CREATE TRIGGER fail_midway BEFORE INSERT ON relations FOR EACH ROW EXECUTE FUNCTION fail_midway()',
      );
    } else {
      await t.dataSource.query(`CREATE TRIGGER fail_midway BEFORE INSERT ON relations
        WHEN NEW.type = 'explode' BEGIN SELECT RAISE(ABORT, 'injected failure'); END`);
    }
    try {
      const payload = bigPayload(3000, 'doomed', 4);
      payload.assets.push({
        ...payload.assets[0],
        id: 'big-1',
        name: 'renamed by doomed run',
      });
      payload.relations.push({
        sourceAssetId: 'doomed-0',
        targetAssetId: 'big-5',
        type: 'explode',
      });
      const response = await t.request('POST', '/api/integrations/ingest', {
        token: editor,
        body: payload,
      });
      expect(response.status).toBe(500);
      expectErrorBody(response, /^Internal server error/);
    } finally {
      await t.dataSource.query(
        testingPostgres() ? 'DROP TRIGGER fail_midway ON relations' : 'DROP TRIGGER fail_midway',
      );
    }
    expect({
      assets: await count('assets'),
      vulnerabilities: await count('findings'),
      relations: await count('relations'),
      updated: await t.dataSource.query('SELECT id, name, updated_at FROM assets ORDER BY id'),
    }).toEqual(before);
  });
});
