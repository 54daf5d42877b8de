import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { INGEST_PATH } from '../../src/runs/ingest.controller.js';
import { storeRows, useIngestionApp } from '../support/ingest-helpers.js';
import { expectErrorBody, TestApp, type ApiResponse } from '../support/test-app.js';

const fixture = (path: string) => readFileSync(join(process.cwd(), 'test', 'fixtures', path));

/** `Content-Encoding: gzip` on the ingestion route, for every format. */
describe('ingestion of gzip bodies', () => {
  let t: TestApp;
  let editor: string;

  const send = (
    body: Buffer,
    contentType: string,
    encoding: string | null = 'gzip',
    token = editor,
  ): Promise<ApiResponse> =>
    t.request('POST', INGEST_PATH, {
      token,
      rawBody: body,
      headers: {
        'content-type': contentType,
        ...(encoding !== null && { 'content-encoding': encoding }),
      },
    });
  const assetsNamed = async (name: string) =>
    (await t.request('GET', `/api/assets?search=${name}`, { token: editor })).body.assets as any[];
  const store = () => storeRows(t.dataSource);

  useIngestionApp((app) => ({ t, editor } = app));

  it('inflates a JSON, an XML and a CSV body', async () => {
    const json = Buffer.from(JSON.stringify({ assets: [{ id: 'gz-json', name: 'gz-json' }] }));
    const answers = [
      await send(gzipSync(json), 'application/json'),
      await send(gzipSync(fixture('nmap/hop-names.xml')), 'application/xml'),
      await send(gzipSync(Buffer.from('name,ip\ngz-csv,10.8.0.1\n')), 'text/csv'),
    ];
    expect(answers.map((answer) => [answer.status, answer.body.stats?.assetsCreated])).toEqual([
      [200, 1],
      [200, 2],
      [200, 1],
    ]);
    expect(await assetsNamed('gz-json')).toHaveLength(1);
    expect(await assetsNamed('web01.example.test')).toHaveLength(1);
    expect(await assetsNamed('gz-csv')).toHaveLength(1);
  });

  it('takes identity as no encoding', async () => {
    const response = await send(Buffer.from('name\ngz-identity\n'), 'text/csv', 'identity');
    expect(response.status).toBe(200);
    expect(await assetsNamed('gz-identity')).toHaveLength(1);
  });

  it('records the inflated size as the run body size', async () => {
    const csv = Buffer.from(`name\n${'gz-size\n'.repeat(10)}`);
    const response = await send(gzipSync(csv), 'text/csv');
    const run = await t.request('GET', `/api/integrations/runs/${response.body.runId}`, {
      token: editor,
    });
    expect(run.body).toMatchObject({ format: 'csv', bodyBytes: csv.length });
  });

  it('is 413 for a body inflating past INGEST_MAX_BYTES (a gzip bomb), writing nothing', async () => {
    const before = await store();
    const inflated = t.config.ingestMaxBytes + 36 * 1024 * 1024;
    const bomb = gzipSync(Buffer.alloc(inflated));
    // About a thousandth of what it inflates to: well under the limit as sent.
    expect(bomb.length).toBeLessThan(inflated / 500);
    const response = await send(bomb, 'application/json');
    expect(response.status).toBe(413);
    expectErrorBody(response, /larger than the limit of 67108864 bytes/);
    expect(await store()).toEqual(before);
    const runs = await t.request('GET', '/api/integrations/runs?limit=1', { token: editor });
    expect(runs.body[0]).toMatchObject({ status: 'rejected', error: response.body.error });
  });

  it('is 400 for a corrupt or truncated gzip body, writing nothing', async () => {
    const before = await store();
    const whole = gzipSync(Buffer.from('name\ngz-corrupt\n'));
    const corrupt = Buffer.from(whole);
    corrupt[12] ^= 0xff;
    for (const body of [
      Buffer.from('name\nnot gzip at all\n'),
      corrupt,
      whole.subarray(0, whole.length - 6),
    ]) {
      const response = await send(body, 'text/csv');
      expect(response.status).toBe(400);
      expectErrorBody(response, /^the gzip body is corrupt: /);
    }
    expect(await store()).toEqual(before);
  });

  it('is 415 for another Content-Encoding, writing nothing', async () => {
    const before = await store();
    for (const encoding of ['deflate', 'br', 'gzip, deflate', 'compress']) {
      const response = await send(Buffer.from('name\ngz-other\n'), 'text/csv', encoding);
      expect(response.status).toBe(415);
      expectErrorBody(
        response,
        new RegExp(`^Content-Encoding must be gzip or identity, got ${encoding}$`),
      );
    }
    expect(await store()).toEqual(before);
  });

  it('refuses a caller before inflating: 401 without a token', async () => {
    const response = await send(gzipSync(Buffer.from('name\nx\n')), 'text/csv', 'gzip', '');
    expect(response.status).toBe(401);
  });
});
