import { expect } from '@jest/globals';
import type { TestApp } from './test-app.js';

type Json = Record<string, any>;

/**
 * The asset routes and the JSON ingestion as one user calls them, each expecting its success
 * status (an error answer fails the test with its message); `app` gives the running app and the
 * user's token once the suite's set-up has made them.
 */
export function assetCalls(app: () => { t: TestApp; token: string }) {
  const call = async (
    method: 'GET' | 'POST' | 'PUT',
    path: string,
    status: number,
    body?: object,
  ) => {
    const { t, token } = app();
    const response = await t.request(method, path, { token, body });
    expect([response.status, response.body?.error]).toEqual([status, undefined]);
    return response.body as Json;
  };
  return {
    create: (body: object) => call('POST', '/api/assets', 201, body),
    put: (id: string, body: object) => call('PUT', `/api/assets/${id}`, 200, body),
    get: (id: string) => call('GET', `/api/assets/${id}`, 200),
    ingest: (body: object) => call('POST', '/api/integrations/ingest', 200, body),
    /** The ids the list answers for `query` (all on one page), sorted. */
    listedIds: async (query: string) => {
      const answer = await call('GET', `/api/assets?limit=1000&${query}`, 200);
      expect(answer.total).toBe(answer.assets.length);
      return (answer.assets as { id: string }[]).map((asset) => asset.id).sort();
    },
    /** The ids the NDJSON export streams for `query`, sorted. */
    exportedIds: async (query: string) => {
      const { t, token } = app();
      const response = await fetch(`${t.baseUrl}/api/assets/export?format=ndjson&${query}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.status).toBe(200);
      return (await response.text())
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line).id as string)
        .sort();
    },
  };
}

/** An asset's rows in asset_identifiers, as `kind value` text, sorted. */
export async function identifierRows(t: TestApp, assetId: string): Promise<string[]> {
  const rows = await t.dataSource.query<{ kind: string; value: string }[]>(
    t.dataSource.driver.options.type === 'postgres'
      ? 'SELECT kind, value FROM asset_identifiers WHERE asset_id = $1'
      : 'SELECT kind, value FROM asset_identifiers WHERE asset_id = ?',
    [assetId],
  );
  return rows.map((row) => `${row.kind} ${row.value}`).sort();
}
