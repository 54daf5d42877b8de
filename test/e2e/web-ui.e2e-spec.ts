import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { expectErrorBody, TestApp } from '../support/test-app.js';
import { selfSignedCertificate, type TestCertificate } from '../support/tls.js';

const INDEX =
  '<!doctype html><title>Asset Map</title><script type="module" src="/static/app-1a2b3c.js"></script>';
const SCRIPT = 'console.log("the UI");';
const HTML = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

/** A built UI as Vite writes it: index.html, hashed files under static/ with their .gz. */
function builtUi(): string {
  const root = mkdtempSync(join(tmpdir(), 'asset-map-web-'));
  mkdirSync(join(root, 'static'));
  writeFileSync(join(root, 'index.html'), INDEX);
  writeFileSync(join(root, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(join(root, 'static', 'app-1a2b3c.js'), SCRIPT);
  writeFileSync(join(root, 'static', 'app-1a2b3c.js.gz'), gzipSync(SCRIPT));
  return root;
}

describe('the browser UI served at /', () => {
  let t: TestApp;
  let root: string;

  beforeAll(async () => {
    root = builtUi();
    t = await TestApp.start({}, undefined, { webRoot: root });
  });
  afterAll(async () => {
    await t.close();
    rmSync(root, { recursive: true, force: true });
  });

  it.each(['/', '/assets', '/assets/web-1', '/map?diagram=x', '/runs/123'])(
    'answers a browser navigating to %s with index.html, never cached without a check',
    async (path) => {
      const response = await fetch(`${t.baseUrl}${path}`, { headers: HTML });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(response.headers.get('cache-control')).toBe('no-cache');
      await expect(response.text()).resolves.toBe(INDEX);
    },
  );

  it('sends a strict policy with the page: scripts, styles and requests from this origin only', async () => {
    const response = await fetch(`${t.baseUrl}/`, { headers: HTML });
    const policy = response.headers.get('content-security-policy')!;
    for (const directive of [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self'",
      "connect-src 'self'",
      "object-src 'none'",
      "frame-ancestors 'none'",
    ]) {
      expect(policy).toContain(directive);
    }
    expect(policy).not.toContain('unsafe-inline');
    expect(policy).not.toContain('unsafe-eval');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('serves hashed files for a year, gzipped for a browser that takes it', async () => {
    const response = await fetch(`${t.baseUrl}/static/app-1a2b3c.js`, {
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(response.headers.get('content-type')).toMatch(/javascript/);
    expect(response.headers.get('content-encoding')).toBe('gzip');
    await expect(response.text()).resolves.toBe(SCRIPT);
  });

  it('serves the other files as they are, checked on every load', async () => {
    const response = await fetch(`${t.baseUrl}/favicon.svg`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-cache');
  });

  it('keeps the API as it is: its 404s stay {"error"} with its own headers, even for a browser', async () => {
    for (const path of ['/api/no-such-route', '/api', '/api/assets/x/y/z']) {
      const response = await t.request('GET', path, { headers: HTML });
      expect(response.status).toBe(404);
      expectErrorBody(response);
      expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    }
    const health = await t.request('GET', '/api/health', { headers: HTML });
    expect(health.status).toBe(200);
    expect(health.headers.get('content-security-policy')).toContain("default-src 'none'");
  });

  it('answers {"error"} 404 to what is not a page: other methods, non-HTML clients, missing files', async () => {
    const cases: [string, string, Record<string, string>][] = [
      ['GET', '/no-such-route', {}],
      ['GET', '/static/missing-000000.js', {}],
      ['POST', '/', HTML],
      ['DELETE', '/assets', HTML],
    ];
    for (const [method, path, headers] of cases) {
      const response = await t.request(method, path, { headers });
      expect(response.status).toBe(404);
      expectErrorBody(response);
      // A JSON answer keeps the API's headers, wherever it was asked.
      expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    }
  });

  it('answers HEAD of a page with the headers of GET and no body', async () => {
    const response = await fetch(`${t.baseUrl}/assets`, { method: 'HEAD', headers: HTML });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    await expect(response.text()).resolves.toBe('');
  });
});

describe('without a built UI', () => {
  let t: TestApp;
  let root: string;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'asset-map-web-'));
    t = await TestApp.start({}, undefined, { webRoot: root });
  });
  afterAll(async () => {
    await t.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('answers every page with the API 404', async () => {
    const response = await t.request('GET', '/', { headers: HTML });
    expect(response.status).toBe(404);
    expectErrorBody(response);
  });
});

// Like the HTTPS suite, this one needs openssl.
describe('the browser UI over HTTPS', () => {
  let t: TestApp;
  let root: string;
  let tls: TestCertificate;
  let cert: Buffer;

  beforeAll(async () => {
    root = builtUi();
    tls = selfSignedCertificate();
    ({ cert } = tls);
    const { certFile, keyFile } = tls;
    t = await TestApp.start({ TLS_CERT_FILE: certFile, TLS_KEY_FILE: keyFile }, undefined, {
      webRoot: root,
    });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(root, { recursive: true, force: true });
    rmSync(tls.folder, { recursive: true, force: true });
  });

  it('serves the page over TLS, with HSTS and the policy', async () => {
    const answer = await new Promise<{
      status: number;
      headers: Record<string, unknown>;
      body: string;
    }>((resolve, reject) => {
      const req = httpsRequest(`${t.baseUrl}/assets`, { ca: cert, headers: HTML }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toBe(INDEX);
    expect(answer.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    expect(answer.headers['content-security-policy']).toContain("script-src 'self'");
  });
});
