import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connect } from 'node:net';
import { MetricsServer } from '../../src/metrics/metrics.server.js';
import { scannerPayload } from '../support/payloads.js';
import { expectErrorBody, httpRequest, TestApp } from '../support/test-app.js';
import { testingPostgres } from '../support/test-database.js';

const TOKEN = 'metrics-token-for-tests';

interface Sample {
  labels: Record<string, string>;
  value: number;
}

/** The samples of one metric in Prometheus' text format. */
function samplesOf(text: string, name: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) {
      labels[key] = value;
    }
    samples.push({ labels, value: Number(match[3]) });
  }
  return samples;
}

/** The value of the sample with exactly these labels, 0 when there is none. */
function valueOf(text: string, name: string, labels: Record<string, string> = {}): number {
  const key = (entries: Record<string, string>) => JSON.stringify(Object.entries(entries).sort());
  const sample = samplesOf(text, name).find((candidate) => key(candidate.labels) === key(labels));
  return sample?.value ?? 0;
}

/** Whatever the server writes back to these raw bytes, until it closes the connection. */
function rawExchange(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('metrics', () => {
  describe('on METRICS_PORT, behind METRICS_TOKEN', () => {
    let t: TestApp;
    let metricsUrl: string;
    let admin: string;

    const scrape = async (): Promise<string> => {
      const response = await fetch(`${metricsUrl}/metrics`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      return response.text();
    };
    const ingest = (body: unknown) =>
      t.request('POST', '/api/integrations/ingest', { token: admin, body });

    beforeAll(async () => {
      t = await TestApp.start({
        METRICS_PORT: '0',
        METRICS_HOST: '127.0.0.1',
        METRICS_TOKEN: TOKEN,
      });
      metricsUrl = `http://127.0.0.1:${t.app.get(MetricsServer).address()!.port}`;
      admin = await t.login();
    });
    afterAll(async () => {
      await t.close();
    });

    it('counts answers by route pattern, method and status, never by raw URL', async () => {
      const before = await scrape();
      const byId = { route: '/api/assets/:id', method: 'GET', status_code: '404' };
      const health = { route: '/api/health', method: 'GET', status_code: '200' };
      const unmatched = { route: 'unmatched', method: 'GET', status_code: '404' };
      for (const id of ['no-such-asset', 'nor-this-one']) {
        expect((await t.request('GET', `/api/assets/${id}`, { token: admin })).status).toBe(404);
      }
      for (let i = 0; i < 3; i++) {
        expect((await t.request('GET', '/api/health')).status).toBe(200);
      }
      expect((await t.request('GET', '/api/unknown-route-xyz')).status).toBe(404);

      const after = await scrape();
      const count = 'http_request_duration_seconds_count';
      expect(valueOf(after, count, byId) - valueOf(before, count, byId)).toBe(2);
      expect(valueOf(after, count, health) - valueOf(before, count, health)).toBe(3);
      expect(valueOf(after, count, unmatched) - valueOf(before, count, unmatched)).toBe(1);
      // Every observation falls in the +Inf bucket; the latencies add up to something.
      expect(
        valueOf(after, 'http_request_duration_seconds_bucket', { ...health, le: '+Inf' }),
      ).toBe(valueOf(after, count, health));
      expect(valueOf(after, 'http_request_duration_seconds_sum', health)).toBeGreaterThan(0);
      expect(after).not.toMatch(/no-such-asset|unknown-route-xyz/);
    });

    it('counts ingestion runs by outcome and mode, with their durations', async () => {
      const before = await scrape();
      expect((await ingest(scannerPayload(3, 'metrics', 71))).status).toBe(200);
      // Append mode, refused for an id already stored.
      expect((await ingest(scannerPayload(1, 'metrics', 71, 'append'))).status).toBe(409);
      // Refused before its options were read.
      const malformed = await t.request('POST', '/api/integrations/ingest', {
        token: admin,
        rawBody: '{"assets": [',
        headers: { 'content-type': 'application/json' },
      });
      expect(malformed.status).toBe(400);

      const after = await scrape();
      const delta = (name: string, labels: Record<string, string>) =>
        valueOf(after, name, labels) - valueOf(before, name, labels);
      for (const labels of [
        { outcome: 'succeeded', mode: 'merge' },
        { outcome: 'rejected', mode: 'append' },
        { outcome: 'rejected', mode: 'unknown' },
      ]) {
        expect(delta('assetmap_ingestions_total', labels)).toBe(1);
        expect(delta('assetmap_ingestion_duration_seconds_count', labels)).toBe(1);
      }
      expect(delta('assetmap_ingestions_total', { outcome: 'failed', mode: 'merge' })).toBe(0);
      expect(
        delta('assetmap_ingestion_duration_seconds_sum', { outcome: 'succeeded', mode: 'merge' }),
      ).toBeGreaterThan(0);
    });

    it('reports the database connections', async () => {
      const text = await scrape();
      if (testingPostgres()) {
        const total = valueOf(text, 'assetmap_db_pool_connections');
        expect(total).toBeGreaterThanOrEqual(1);
        expect(total).toBeLessThanOrEqual(10);
        expect(valueOf(text, 'assetmap_db_pool_idle_connections')).toBeLessThanOrEqual(total);
        expect(samplesOf(text, 'assetmap_db_pool_waiting_requests')).toEqual([
          { labels: {}, value: 0 },
        ]);
      } else {
        expect(samplesOf(text, 'assetmap_db_pool_connections')).toEqual([{ labels: {}, value: 1 }]);
        expect(text).not.toMatch(/assetmap_db_pool_(idle|waiting)/);
      }
    });

    it("includes Node's own metrics: event-loop delay, CPU, memory", async () => {
      const text = await scrape();
      for (const name of [
        'nodejs_eventloop_lag_p99_seconds',
        'nodejs_eventloop_lag_max_seconds',
        'process_cpu_seconds_total',
        'nodejs_heap_size_used_bytes',
      ]) {
        expect(samplesOf(text, name).length).toBeGreaterThan(0);
      }
    });

    it('answers HEAD without a body', async () => {
      const response = await fetch(`${metricsUrl}/metrics`, {
        method: 'HEAD',
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(response.status).toBe(200);
      expect(await response.text()).toBe('');
    });

    it.each([
      ['no token', {}],
      ['another token', { authorization: 'Bearer metrics-token-for-tests-but-not-quite' }],
      ['the token under another scheme', { authorization: `Basic ${TOKEN}` }],
    ])('refuses a scrape with %s: 401 {"error"}', async (_what, headers) => {
      for (const path of ['/metrics', '/elsewhere']) {
        const response = await httpRequest(metricsUrl, 'GET', path, { headers });
        expect(response.status).toBe(401);
        expect(response.headers.get('www-authenticate')).toBe('Bearer');
        expectErrorBody(response, /token/);
        expect(JSON.stringify(response.body)).not.toMatch(/http_request/);
      }
    });

    it('answers 404 elsewhere and 405 to other methods, as {"error"}', async () => {
      const options = { token: TOKEN };
      const elsewhere = await httpRequest(metricsUrl, 'GET', '/api/health', options);
      expect(elsewhere.status).toBe(404);
      expectErrorBody(elsewhere, /\/metrics/);
      const post = await httpRequest(metricsUrl, 'POST', '/metrics', options);
      expect(post.status).toBe(405);
      expect(post.headers.get('allow')).toBe('GET, HEAD');
      expectErrorBody(post);
    });

    it('answers a malformed request with 400, headers too large with 431, as {"error"}', async () => {
      const port = t.app.get(MetricsServer).address()!.port;
      const answer = await rawExchange(port, 'GET /metrics HTTP/9.9\r\nHost: x\r\n\r\n');
      const [head, body] = answer.split('\r\n\r\n');
      expect(head).toMatch(/^HTTP\/1\.1 400 /);
      expect(Object.keys(JSON.parse(body) as object)).toEqual(['error']);
      const tooLarge = await httpRequest(metricsUrl, 'GET', '/metrics', {
        token: TOKEN,
        headers: { 'x-padding': 'a'.repeat(20_000) },
      });
      expect(tooLarge.status).toBe(431);
      expectErrorBody(tooLarge, /headers/);
    });

    it('is not served on the API port', async () => {
      for (const path of ['/metrics', '/api/metrics']) {
        const response = await t.request('GET', path, {
          headers: { authorization: `Bearer ${TOKEN}` },
        });
        expect(response.status).toBe(404);
        expectErrorBody(response);
      }
    });
  });

  describe('without METRICS_PORT', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await TestApp.start();
    });
    afterAll(async () => {
      await t.close();
    });

    it('serves no metrics anywhere', async () => {
      expect(t.app.get(MetricsServer).address()).toBeNull();
      const response = await t.request('GET', '/metrics');
      expect(response.status).toBe(404);
      expectErrorBody(response);
    });
  });
});
