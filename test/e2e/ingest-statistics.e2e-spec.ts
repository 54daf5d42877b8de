import { describe, expect, it } from '@jest/globals';
import { INGEST_PATH } from '../../src/runs/ingest.controller.js';
import { useIngestionApp, type IngestionApp } from '../support/ingest-helpers.js';
import { scannerPayload } from '../support/payloads.js';
import { testingPostgres } from '../support/test-database.js';

// PostgreSQL only: SQLite's planner does not plan by row counts kept beforehand.
(testingPostgres() ? describe : describe.skip)(
  'PostgreSQL planner statistics and search index after a large ingestion',
  () => {
    let app: IngestionApp;
    useIngestionApp((started) => (app = started));

    const lastAnalyze = async () => {
      const [row] = await app.t.dataSource.query<{ analyzed: string | null }[]>(
        `SELECT last_analyze AS analyzed FROM pg_stat_user_tables
         WHERE relid = 'assets'::regclass`,
      );
      return row.analyzed;
    };
    const ingest = async (count: number, prefix: string, net: number) => {
      const response = await app.t.request('POST', INGEST_PATH, {
        token: app.editor,
        body: scannerPayload(count, prefix, net),
      });
      expect(response.status).toBe(200);
    };

    it('leaves them to autovacuum after a small run', async () => {
      await ingest(100, 'small', 1);
      expect(await lastAnalyze()).toBeNull();
    });

    it('refreshes them before answering a run that changed a tenth of the store or more', async () => {
      await ingest(1000, 'large', 2);
      const analyzed = await lastAnalyze();
      expect(analyzed).not.toBeNull();
      const [{ planned }] = await app.t.dataSource.query<{ planned: number }[]>(
        `SELECT reltuples AS planned FROM pg_class WHERE oid = 'assets'::regclass`,
      );
      expect(Number(planned)).toBe(1100);
    });

    it("merges the search index's pending entries before answering a run that wrote many assets", async () => {
      await ingest(1000, 'merged', 3);
      const [{ pages }] = await app.t.dataSource.query<{ pages: number }[]>(
        `SELECT gin_clean_pending_list('"IDX_assets_search"'::regclass) AS pages`,
      );
      expect(Number(pages)).toBe(0);
    });
  },
);
