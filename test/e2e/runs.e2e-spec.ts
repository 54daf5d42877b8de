import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { AppDataSource } from '../../src/database/app-data-source.js';
import { IdempotencyKey } from '../../src/database/entities/idempotency-key.entity.js';
import { IngestionRun } from '../../src/database/entities/ingestion-run.entity.js';
import { holdIngestionLocks, ingestWithKey } from '../support/ingest-helpers.js';
import { parseRawResponse, untilClosed } from '../support/raw-http.js';
import { TestApp, expectErrorBody, type ApiResponse } from '../support/test-app.js';

const INGEST = '/api/integrations/ingest';
const RUNS = '/api/integrations/runs';
const MAX_BYTES = 4096;

describe('ingestion runs', () => {
  let t: TestApp;
  let admin: string;
  let editor: { id: string; email: string; token: string };
  let viewer: string;
  let apiKey: { id: string; prefix: string; key: string };

  /** An ingestion sent as the exact bytes given. */
  const ingest = (token: string, body: string, headers: Record<string, string> = {}) =>
    t.request('POST', INGEST, {
      token,
      rawBody: body,
      headers: { 'content-type': 'application/json', ...headers },
    });
  const runs = async (query = '') => {
    const response = await t.request('GET', `${RUNS}${query}`, { token: viewer });
    expect(response.status).toBe(200);
    return { runs: response.body as Record<string, any>[], total: response.headers };
  };
  const runCount = async () => Number((await runs('?limit=1')).total.get('x-total-count'));
  const run = async (id: string) => {
    const response = await t.request('GET', `${RUNS}/${id}`, { token: viewer });
    expect(response.status).toBe(200);
    return response.body as Record<string, any>;
  };
  /** The run of an answer that carries none (an error): the newest. */
  const newestRun = async () => (await runs('?limit=1')).runs[0];

  beforeAll(async () => {
    t = await TestApp.start({ INGEST_MAX_BYTES: String(MAX_BYTES) });
    admin = await t.login();
    editor = await t.createUser('editor');
    viewer = (await t.createUser('viewer')).token;
    const created = await t.request('POST', '/api/auth/api-keys', {
      token: editor.token,
      body: { name: 'ci' },
    });
    apiKey = created.body;
  });
  afterAll(async () => {
    await t.close();
  });

  describe('recording', () => {
    it('records a succeeded run with its options, actor, request id, size and stats', async () => {
      const body = JSON.stringify({
        options: { mode: 'merge', source: 'nmap-dmz', deleteStale: true },
        assets: [{ id: 'rec-1', name: 'rec-1', ip: '10.9.0.1' }],
      });
      const answer = await ingest(apiKey.key, body, { 'x-request-id': 'ci-job-4711-ingest' });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('idempotent-replayed')).toBeNull();
      expect(typeof answer.body.runId).toBe('string');

      const recorded = await run(answer.body.runId);
      expect(recorded).toEqual({
        id: answer.body.runId,
        status: 'succeeded',
        dryRun: false,
        format: 'json',
        mode: 'merge',
        source: 'nmap-dmz',
        deleteStale: true,
        actor: {
          userId: editor.id,
          email: editor.email,
          apiKeyId: apiKey.id,
          apiKeyPrefix: apiKey.prefix,
        },
        requestId: 'ci-job-4711-ingest',
        bodyBytes: Buffer.byteLength(body),
        startedAt: expect.any(String),
        finishedAt: expect.any(String),
        stats: answer.body.stats,
        error: null,
      });
      expect(answer.headers.get('x-request-id')).toBe(recorded.requestId);
      expect(Date.parse(recorded.finishedAt)).toBeGreaterThanOrEqual(
        Date.parse(recorded.startedAt),
      );
    });

    it('names a session token caller without an API key', async () => {
      const answer = await ingest(editor.token, '{}');
      expect(answer.status).toBe(200);
      expect((await run(answer.body.runId)).actor).toEqual({
        userId: editor.id,
        email: editor.email,
        apiKeyId: null,
        apiKeyPrefix: null,
      });
    });

    it.each([
      [
        'an invalid item',
        () => editor.token,
        '{"assets":[{"name":"a","ip":"not-an-ip"}]}',
        400,
        { mode: 'merge', source: null, deleteStale: false, dryRun: false },
      ],
      [
        "an editor's replace",
        () => editor.token,
        '{"options":{"mode":"replace"}}',
        403,
        { mode: null, source: null, deleteStale: null, dryRun: null },
      ],
      [
        'a body that is not JSON',
        () => editor.token,
        '{"assets": [',
        400,
        { mode: null, source: null, deleteStale: null, dryRun: null },
      ],
    ])(
      'records %s as rejected, with the error sentence of the answer',
      async (_case, token, body, status, options) => {
        const answer = await ingest(token(), body);
        expect(answer.status).toBe(status);
        expectErrorBody(answer);
        expect(await newestRun()).toMatchObject({
          status: 'rejected',
          error: answer.body.error,
          stats: null,
          format: 'json',
          ...options,
          requestId: answer.headers.get('x-request-id'),
          bodyBytes: Buffer.byteLength(body),
          finishedAt: expect.any(String),
        });
      },
    );

    it('records a body over the limit as rejected, its size unknown', async () => {
      const body = JSON.stringify({ assets: [{ name: 'x'.repeat(MAX_BYTES) }] });
      const answer = await ingest(editor.token, body);
      expect(answer.status).toBe(413);
      expect(await newestRun()).toMatchObject({
        status: 'rejected',
        error: answer.body.error,
        bodyBytes: null,
        mode: null,
      });
    });

    it('answers a run that needs no write while another ingestion writes, and records it after', async () => {
      const locks = await holdIngestionLocks(t.dataSource as AppDataSource);
      let answer: ApiResponse;
      try {
        answer = await ingest(editor.token, '{"options":{"mode":"bogus"}}');
        expect(answer.status).toBe(400);
      } finally {
        await locks.release();
      }
      const recorded = await pollFor(async () => {
        const listed = await runs(`?limit=1`);
        const run = listed.runs[0];
        return run?.requestId === answer.headers.get('x-request-id') && run.status !== 'running'
          ? run
          : undefined;
      });
      expect(recorded).toMatchObject({ status: 'rejected', error: answer.body.error });
    });

    it('deletes runs older than 90 days as a run starts', async () => {
      const runs = t.dataSource.getRepository(IngestionRun);
      const answer = await ingest(editor.token, '{}');
      const old = { ...(await runs.findOneByOrFail({ id: answer.body.runId })), id: 'old-run' };
      const day = 86_400_000;
      await runs.insert({ ...old, startedAt: new Date(Date.now() - 91 * day) });
      await runs.insert({ ...old, id: 'recent-run', startedAt: new Date(Date.now() - 89 * day) });
      expect((await t.request('GET', `${RUNS}/old-run`, { token: viewer })).status).toBe(200);
      await ingest(editor.token, '{}');
      expect((await t.request('GET', `${RUNS}/old-run`, { token: viewer })).status).toBe(404);
      expect((await t.request('GET', `${RUNS}/recent-run`, { token: viewer })).status).toBe(200);
    });

    it("does not record a viewer's ingestion, refused by the role check", async () => {
      const before = await runCount();
      const answer = await ingest(viewer, '{}');
      expect(answer.status).toBe(403);
      const unauthenticated = await ingest('not-a-token', '{}');
      expect(unauthenticated.status).toBe(401);
      expect(await runCount()).toBe(before);
    });
  });

  describe('the list', () => {
    let ids: string[];

    beforeAll(async () => {
      ids = [];
      for (const source of ['list-a', 'list-b', 'list-a']) {
        const answer = await ingest(admin, JSON.stringify({ options: { source } }));
        ids.push(answer.body.runId);
      }
      const rejected = { options: { source: 'list-a' }, assets: [{ name: '' }] };
      expect((await ingest(admin, JSON.stringify(rejected))).status).toBe(400);
    });

    it('lists every run newest first, with the total', async () => {
      const response = await t.request('GET', RUNS, { token: viewer });
      expect(response.status).toBe(200);
      expect(Number(response.headers.get('x-total-count'))).toBe(response.body.length);
      const listed = response.body.map((entry: { id: string }) => entry.id);
      expect(listed.indexOf(ids[2])).toBeLessThan(listed.indexOf(ids[1]));
      expect(listed.indexOf(ids[1])).toBeLessThan(listed.indexOf(ids[0]));
      const started = response.body.map((entry: { startedAt: string }) => entry.startedAt);
      expect([...started].sort().reverse()).toEqual(started);
    });

    it('filters by source and status, and pages', async () => {
      const bySource = await runs('?source=list-a');
      expect(bySource.runs.map((entry) => entry.source)).toEqual(['list-a', 'list-a', 'list-a']);
      const succeeded = await runs('?source=list-a&status=succeeded');
      expect(succeeded.runs.map((entry) => entry.id)).toEqual([ids[2], ids[0]]);
      expect(succeeded.total.get('x-total-count')).toBe('2');
      const rejected = await runs('?source=list-a&status=rejected');
      expect(rejected.runs.map((entry) => entry.status)).toEqual(['rejected']);
      const page = await runs('?source=list-a&status=succeeded&limit=1&offset=1');
      expect(page.runs.map((entry) => entry.id)).toEqual([ids[0]]);
      expect(page.total.get('x-total-count')).toBe('2');
    });

    it.each([
      ['status=done', /^status must be one of running, succeeded, rejected, failed$/],
      ['limit=0', /^limit must be/],
      ['limit=1001', /^limit must be/],
      ['offset=-1', /^offset must be/],
      ['source=', /source/],
      ['colour=red', /colour/],
    ])('refuses ?%s with a 400 naming the field', async (query, pattern) => {
      const response = await t.request('GET', `${RUNS}?${query}`, { token: viewer });
      expect(response.status).toBe(400);
      expectErrorBody(response, pattern);
    });

    it('gets one run, 404 for an unknown id, 401 without a token', async () => {
      expect((await run(ids[0])).id).toBe(ids[0]);
      const unknown = await t.request('GET', `${RUNS}/no-such-run`, { token: viewer });
      expect(unknown.status).toBe(404);
      expectErrorBody(unknown);
      expect((await t.request('GET', RUNS)).status).toBe(401);
    });
  });

  describe('Idempotency-Key', () => {
    const text = (response: ApiResponse) => JSON.stringify(response.body);
    const keyed = (token: string, body: string, key: string) =>
      ingest(token, body, { 'idempotency-key': key });
    const stored = async () =>
      (await t.request('GET', '/api/assets?limit=1000', { token: viewer })).body;

    it('replays the kept answer byte for byte, running nothing', async () => {
      const body = JSON.stringify({
        options: { source: 'replay' },
        assets: [{ id: 'replay-1', name: 'replay-1' }],
      });
      const first = await ingestWithKey(t.baseUrl, apiKey.key, body, 'job-1');
      expect(first.status).toBe(200);
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      const runsBefore = await runCount();
      const storeBefore = await stored();

      const again = await ingestWithKey(t.baseUrl, apiKey.key, body, 'job-1');
      expect(again.status).toBe(200);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'));
      expect(again.text).toBe(first.text);
      expect(await runCount()).toBe(runsBefore);
      expect(await stored()).toEqual(storeBefore);
    });

    it('replays a kept 4xx answer too', async () => {
      const body = '{"assets":[{"name":""}]}';
      const first = await ingestWithKey(t.baseUrl, apiKey.key, body, 'job-bad');
      expect(first.status).toBe(400);
      const runsBefore = await runCount();
      const again = await ingestWithKey(t.baseUrl, apiKey.key, body, 'job-bad');
      expect(again.status).toBe(400);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.text).toBe(first.text);
      expect(await runCount()).toBe(runsBefore);
    });

    it('runs again once the kept answer is over 24 hours old', async () => {
      const body = '{"assets":[{"name":"expiring"}]}';
      const first = await keyed(apiKey.key, body, 'job-old');
      expect(first.status).toBe(200);
      // As if the day had passed.
      await t.dataSource
        .getRepository(IdempotencyKey)
        .update({ key: 'job-old' }, { expiresAt: new Date(Date.now() - 1000) });
      const again = await keyed(apiKey.key, body, 'job-old');
      expect(again.status).toBe(200);
      expect(again.headers.get('idempotent-replayed')).toBeNull();
      expect(again.body.runId).not.toBe(first.body.runId);
      const third = await ingestWithKey(t.baseUrl, apiKey.key, body, 'job-old');
      expect(third.headers.get('idempotent-replayed')).toBe('true');
      expect(JSON.parse(third.text).runId).toBe(again.body.runId);
    });

    it('answers 422 to the same key with another body, a rejected run', async () => {
      const first = await keyed(apiKey.key, '{"assets":[{"name":"k-1"}]}', 'job-2');
      expect(first.status).toBe(200);
      const storeBefore = await stored();
      const other = await keyed(apiKey.key, '{"assets":[{"name":"k-2"}]}', 'job-2');
      expect(other.status).toBe(422);
      expectErrorBody(other, /Idempotency-Key/);
      expect(other.headers.get('idempotent-replayed')).toBeNull();
      expect(await newestRun()).toMatchObject({ status: 'rejected', error: other.body.error });
      expect(await stored()).toEqual(storeBefore);
      // Even a byte of difference (the same JSON, spaced otherwise) is another body.
      const spaced = await keyed(apiKey.key, '{"assets": [{"name":"k-1"}]}', 'job-2');
      expect(spaced.status).toBe(422);
    });

    it("keeps each caller's keys apart: another caller's same key runs", async () => {
      const body = '{"assets":[{"name":"shared-key"}]}';
      const byKey = await keyed(apiKey.key, body, 'job-3');
      const bySession = await keyed(editor.token, body, 'job-3');
      const byAdmin = await keyed(admin, body, 'job-3');
      for (const answer of [byKey, bySession, byAdmin]) {
        expect(answer.status).toBe(200);
        expect(answer.headers.get('idempotent-replayed')).toBeNull();
      }
      expect(new Set([byKey, bySession, byAdmin].map((answer) => answer.body.runId)).size).toBe(3);
      expect(text(byKey)).not.toBe(text(bySession));
    });

    it('refuses a key that is not 1 to 255 printable characters, as a rejected run', async () => {
      for (const key of ['k'.repeat(256), 'tab\there']) {
        const answer = await keyed(editor.token, '{}', key);
        expect(answer.status).toBe(400);
        expectErrorBody(answer, /^Idempotency-Key must be/);
        expect(await newestRun()).toMatchObject({ status: 'rejected', error: answer.body.error });
      }
    });

    it('gives one of two requests sent together with one key the run, the other its answer or 409', async () => {
      const body = JSON.stringify({ assets: [{ id: 'together-1', name: 'together-1' }] });
      const before = await runs('?status=succeeded&limit=1');
      const answers = await Promise.all([
        ingestWithKey(t.baseUrl, apiKey.key, body, 'job-together'),
        ingestWithKey(t.baseUrl, apiKey.key, body, 'job-together'),
      ]);
      const ran = answers.filter(
        (answer) => answer.status === 200 && !answer.headers.get('idempotent-replayed'),
      );
      expect(ran).toHaveLength(1);
      for (const other of answers.filter((answer) => answer !== ran[0])) {
        if (other.status === 200) expect(other.text).toBe(ran[0].text);
        else expect(other.status).toBe(409);
      }
      const after = await runs('?status=succeeded&limit=1');
      expect(Number(after.total.get('x-total-count'))).toBe(
        Number(before.total.get('x-total-count')) + 1,
      );
    });
  });

  it('are documented: the routes, the ingestion header and answers, runId', async () => {
    const document = (await t.request('GET', '/api/docs-json')).body;
    const list = document.paths['/api/integrations/runs'].get;
    expect(list.parameters.map((parameter: { name: string }) => parameter.name).sort()).toEqual([
      'limit',
      'offset',
      'source',
      'status',
    ]);
    expect(list.responses['200'].headers).toHaveProperty('X-Total-Count');
    expect(list.responses['200'].content['application/json'].schema).toEqual({
      type: 'array',
      items: { $ref: '#/components/schemas/RunResponse' },
    });
    expect(Object.keys(document.paths['/api/integrations/runs/{id}'].get.responses)).toEqual(
      expect.arrayContaining(['200', '404']),
    );
    const run = document.components.schemas.RunResponse;
    expect(Object.keys(run.properties).sort()).toEqual(
      [
        'id',
        'status',
        'dryRun',
        'format',
        'mode',
        'source',
        'deleteStale',
        'actor',
        'requestId',
        'bodyBytes',
        'startedAt',
        'finishedAt',
        'stats',
        'error',
      ].sort(),
    );
    expect(document.components.schemas.RunStatus.enum).toEqual([
      'running',
      'succeeded',
      'rejected',
      'failed',
    ]);
    const ingestion = document.paths['/api/integrations/ingest'].post;
    expect(ingestion.parameters).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false }),
      ]),
    );
    expect(ingestion.responses['200'].headers).toHaveProperty('Idempotent-Replayed');
    expect(Object.keys(ingestion.responses)).toEqual(expect.arrayContaining(['409', '422']));
    expect(ingestion.responses['422'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/ErrorResponseDto',
    });
    expect(document.components.schemas.IngestResponse.properties.runId).toMatchObject({
      type: 'string',
      example: expect.any(String),
    });
  });
});

// An app of its own, after the other: one app at a time in a test file.
describe('an ingestion whose body is not received in time', () => {
  let slow: TestApp;

  beforeAll(async () => {
    slow = await TestApp.start({ HTTP_HEADERS_TIMEOUT_S: '1', HTTP_REQUEST_TIMEOUT_S: '1' });
  });
  afterAll(async () => {
    await slow.close();
  });

  it('is a rejected run with the 408 sentence', async () => {
    const token = await slow.login();
    const received = await untilClosed(
      slow.baseUrl,
      `POST ${INGEST} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"assets":',
    );
    const answer = parseRawResponse(Buffer.from(received))!;
    expect(answer.status).toBe(408);
    const { error } = JSON.parse(answer.body) as { error: string };
    const recorded = await pollFor(async () => {
      const listed = await slow.request('GET', RUNS, { token });
      const run = (listed.body as Record<string, any>[])[0];
      return run?.status === 'running' ? undefined : run;
    });
    expect(recorded).toMatchObject({ status: 'rejected', error, bodyBytes: null });
  });
});

/** Polls until `look` gives a value: the run's end is recorded after the answer. */
async function pollFor<T>(look: () => Promise<T | undefined>): Promise<T> {
  for (;;) {
    const found = await look();
    if (found !== undefined) return found;
    await new Promise((resolve) => setImmediate(resolve));
  }
}
