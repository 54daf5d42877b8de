import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readdirSync } from 'node:fs';
import { connect } from 'node:net';
import { TestApp } from '../support/test-app.js';

/** The status and JSON body of the first answer on a raw connection that sent `head` and `part`. */
function answerToPartialUpload(
  baseUrl: string,
  head: string,
  part: Buffer,
): Promise<{ status: number; body: unknown }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let received = '';
    socket.on('error', reject);
    socket.on('connect', () => {
      socket.write(head);
      socket.write(part);
    });
    socket.on('data', (chunk) => {
      received += chunk.toString();
      const [headers, body] = received.split('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(headers ?? '');
      if (body === undefined || !length || Buffer.byteLength(body) < Number(length[1])) return;
      socket.destroy();
      resolve({ status: Number(received.split(' ')[1]), body: JSON.parse(body) });
    });
  });
}

describe('ingestion against hostile clients', () => {
  let t: TestApp;
  let viewer: string;
  let editor: string;

  beforeAll(async () => {
    t = await TestApp.start();
    viewer = (await t.createUser('viewer')).token;
    editor = (await t.createUser('editor')).token;
  });

  const ingest = (body: unknown) =>
    t.request('POST', '/api/integrations/ingest', { token: editor, body });
  const relationIds = async () =>
    (await t.dataSource.query<{ id: string }[]>('SELECT id FROM relations ORDER BY id')).map(
      (row) => row.id,
    );
  afterAll(() => t.close());

  describe('a large body of a caller not allowed to ingest', () => {
    // 40 MiB announced, 64 KiB sent: an answer can only come before the body is read.
    const head = (authorization?: string) =>
      [
        'POST /api/integrations/ingest HTTP/1.1',
        'Host: localhost',
        'Content-Type: application/json',
        `Content-Length: ${40 * 1024 * 1024}`,
        ...(authorization ? [`Authorization: ${authorization}`] : []),
        '',
        '',
      ].join('\r\n');
    const part = Buffer.from(`{"assets":[${'{"name":"x"},'.repeat(5_000)}`);

    it('is answered 401 without a token, before the body is read', async () => {
      const answer = await answerToPartialUpload(t.baseUrl, head(), part);
      expect(answer).toEqual({
        status: 401,
        body: { error: 'Not authenticated: missing Authorization header' },
      });
    });

    it('is answered 401 with a bad token, before the body is read', async () => {
      const answer = await answerToPartialUpload(t.baseUrl, head('Bearer not-a-token'), part);
      expect(answer.status).toBe(401);
    });

    it('is answered 403 for a viewer, before the body is read', async () => {
      const answer = await answerToPartialUpload(t.baseUrl, head(`Bearer ${viewer}`), part);
      expect(answer).toEqual({
        status: 403,
        body: { error: 'This action requires the editor role' },
      });
    });
  });

  describe('a body nested deeper than the limit outside the item arrays', () => {
    // The service runs in this process: its threads are this process's threads.
    const threads = () => readdirSync('/proc/self/task').length;
    const deep = (depth: number) =>
      `{"options":{"source":${'['.repeat(depth)}${']'.repeat(depth)}}}`;

    it('is answered 400 naming the problem, every time, and leaves no thread behind', async () => {
      const send = () =>
        t.request('POST', '/api/integrations/ingest', {
          token: editor,
          rawBody: deep(2_000),
          headers: { 'content-type': 'application/json' },
        });
      // The first request starts whatever threads the process keeps (libuv's pool among them).
      expect((await send()).body).toEqual({ error: 'body nests deeper than 200 levels' });
      const before = threads();
      const answers = await Promise.all(Array.from({ length: 30 }, send));
      expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 400));
      expect(threads()).toBe(before);
    });

    it('is refused as deep in an asset item too', async () => {
      const response = await t.request('POST', '/api/integrations/ingest', {
        token: editor,
        rawBody: `{"assets":[{"name":"x","site":${'['.repeat(2_000)}${']'.repeat(2_000)}}]}`,
        headers: { 'content-type': 'application/json' },
      });
      expect(response.status).toBe(400);
      expect(response.body.error).toMatch(/^assets\[0\]\.site /);
    });
  });

  describe('relationsDeleted', () => {
    it('counts the relations the run deleted, by cascade with stale assets included', async () => {
      const assets = ['s-a', 's-b', 's-c'].map((id) => ({ id, name: id }));
      const links = [
        ['s-a', 's-b'],
        ['s-b', 's-c'],
        ['s-c', 's-a'],
        ['other', 's-a'],
      ].map(([sourceAssetId, targetAssetId]) => ({ sourceAssetId, targetAssetId, type: 'link' }));
      expect((await ingest({ options: { source: 'stale' }, assets })).status).toBe(200);
      expect(
        (
          await ingest({
            options: { source: 'other' },
            assets: [{ id: 'other', name: 'o' }],
            relations: links,
          })
        ).status,
      ).toBe(200);
      const before = await relationIds();

      // s-b and s-c go with their relations; other -> s-a stays (other is no asset of this run).
      const response = await ingest({
        options: { source: 'stale', deleteStale: true },
        assets: [{ id: 's-a' }],
      });
      expect(response.status).toBe(200);
      const after = await relationIds();
      expect(after).toHaveLength(1);
      expect(response.body.stats).toMatchObject({ assetsDeleted: 2, relationsDeleted: 3 });
      expect(response.body.stats.relationsDeleted).toBe(before.length - after.length);
    });

    it('counts none in a create-only merge while other requests create relations', async () => {
      const created = await ingest({
        options: { source: 'busy' },
        assets: Array.from({ length: 40 }, (_v, i) => ({ id: `busy-${i}`, name: `busy ${i}` })),
      });
      expect(created.status).toBe(200);
      const payload = {
        options: { source: 'busy-run' },
        assets: Array.from({ length: 3_000 }, (_v, i) => ({ id: `run-${i}`, name: `run ${i}` })),
        relations: Array.from({ length: 2_999 }, (_v, i) => ({
          sourceAssetId: `run-${i}`,
          targetAssetId: `run-${i + 1}`,
          type: 'link',
        })),
      };
      const [response, ...others] = await Promise.all([
        ingest(payload),
        ...Array.from({ length: 20 }, (_v, i) =>
          t.request('POST', '/api/relations', {
            token: editor,
            body: {
              sourceAssetId: `busy-${i}`,
              targetAssetId: `busy-${i + 20}`,
              type: 'meanwhile',
            },
          }),
        ),
      ]);
      expect(others.map((other) => other.status)).toEqual(others.map(() => 201));
      expect(response.status).toBe(200);
      expect(response.body.stats).toMatchObject({ relationsCreated: 2_999, relationsDeleted: 0 });
    });
  });
});
