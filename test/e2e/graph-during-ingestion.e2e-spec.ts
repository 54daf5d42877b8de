import { describe, expect, it } from '@jest/globals';
import { setImmediate as nextTurn } from 'node:timers/promises';
import pg from 'pg';
import type { AppDataSource } from '../../src/database/app-data-source.js';
import { POSTGRES_INGEST_LOCK } from '../../src/database/postgres/postgres.dialect.js';
import { INGEST_PATH } from '../../src/ingest/ingest-route.js';
import { useIngestionApp } from '../support/ingest-helpers.js';
import { scannerPayload } from '../support/payloads.js';
import type { ApiResponse, TestApp } from '../support/test-app.js';
import { testingPostgres } from '../support/test-database.js';

/**
 * On PostgreSQL, holds the ingestions' advisory lock from outside the service: an ingestion
 * started meanwhile takes the service's own write lock, then waits for this one until
 * `release`. SQLite's one write lock cannot be held so: the run's own record, written before
 * the ingestion starts, would wait for it too. There the ingestion's length holds it (a large
 * payload, written in seconds, against reads answered in milliseconds).
 */
async function holdIngestions(t: TestApp): Promise<{ release(): Promise<void> }> {
  if (!testingPostgres()) return { release: async () => {} };
  const client = new pg.Client({ connectionString: (t.dataSource.options as { url: string }).url });
  await client.connect();
  await client.query('SELECT pg_advisory_lock($1)', [POSTGRES_INGEST_LOCK]);
  return { release: () => client.end() };
}

describe('graph reads during an ingestion', () => {
  let t: TestApp;
  let editor: string;

  useIngestionApp((app) => ({ t, editor } = app));

  it('answers graph, path and reachable while an ingestion holds the write lock', async () => {
    const seeded = await t.request('POST', INGEST_PATH, {
      token: editor,
      body: scannerPayload(10, 'g', 1),
    });
    expect(seeded.status).toBe(200);

    const lock = await holdIngestions(t);
    let settled = false;
    let ingestion: Promise<ApiResponse> | undefined;
    try {
      ingestion = t.request('POST', INGEST_PATH, {
        token: editor,
        body: scannerPayload(20_000, 'big', 2),
      });
      void ingestion.finally(() => (settled = true));
      // Once its body is read and its options checked, the ingestion holds the write lock.
      const { exclusiveWrites } = t.dataSource as AppDataSource;
      while (!exclusiveWrites.busy && !settled) await nextTurn();
      expect(settled).toBe(false);

      const answers = await Promise.all([
        t.request('GET', '/api/assets/g-0/graph?depth=3', { token: editor }),
        t.request('GET', '/api/graph/path?from=g-0&to=g-5', { token: editor }),
        t.request('GET', '/api/assets/g-0/reachable?port=22&maxDepth=4', { token: editor }),
      ]);
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
      expect(answers[0].body.assets).toHaveLength(4);
      expect(answers[1].body.assets).toHaveLength(6);
      expect(answers[2].body).toHaveLength(4);
      // The reads were answered while the ingestion could not end.
      expect(settled).toBe(false);
    } finally {
      await lock.release();
    }
    const ingested = await ingestion;
    expect(ingested.status).toBe(200);
    expect(ingested.body.stats.assetsCreated).toBe(20_000);
  });
});
