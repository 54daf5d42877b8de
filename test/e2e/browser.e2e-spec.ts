import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TestApp } from '../support/test-app.js';

const UI = 'https://ui.example.com';

describe('browser clients: CORS and security headers', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.start({ CORS_ORIGINS: `${UI}, http://localhost:5173` });
  });
  afterAll(() => t.close());

  it('answers a preflight from a listed origin, allowing Authorization', async () => {
    const preflight = await fetch(`${t.baseUrl}/api/assets`, {
      method: 'OPTIONS',
      headers: {
        origin: UI,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(UI);
    const allowed = preflight.headers.get('access-control-allow-headers')!.toLowerCase();
    expect(allowed).toContain('authorization');
    expect(allowed).toContain('content-type');
    expect(allowed).toContain('content-encoding');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
  });

  it.each(['PUT', 'DELETE'])(
    'allows %s in a preflight: the UI updates and deletes',
    async (method) => {
      const preflight = await fetch(`${t.baseUrl}/api/assets/some-id`, {
        method: 'OPTIONS',
        headers: {
          origin: UI,
          'access-control-request-method': method,
          'access-control-request-headers': 'authorization,content-type',
        },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe(UI);
      const methods = preflight.headers.get('access-control-allow-methods')!.split(/, */);
      expect(methods).toContain(method);
    },
  );

  it('lets a listed origin read the answer and its headers', async () => {
    const response = await t.request('GET', '/api/health', { headers: { origin: UI } });
    expect(response.headers.get('access-control-allow-origin')).toBe(UI);
    const exposed = response.headers.get('access-control-expose-headers')!.toLowerCase();
    for (const header of ['x-total-count', 'retry-after', 'x-request-id']) {
      expect(exposed).toContain(header);
    }
  });

  it('gives an origin not listed exactly no CORS headers', async () => {
    for (const origin of [
      'https://evil.example.com',
      'https://ui.example.com.evil.net',
      'http://ui.example.com',
    ]) {
      const response = await t.request('GET', '/api/health', { headers: { origin } });
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
      const preflight = await fetch(`${t.baseUrl}/api/assets`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'GET' },
      });
      expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    }
  });

  it('sends the security headers on every answer, errors included, and no HSTS over plain HTTP', async () => {
    for (const path of ['/api/health', '/api/assets', '/api/nowhere']) {
      const response = await t.request('GET', path);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
      expect(response.headers.get('strict-transport-security')).toBeNull();
      expect(response.headers.get('x-powered-by')).toBeNull();
    }
  });

  it('keeps the docs page loadable under its content security policy', async () => {
    const page = await fetch(`${t.baseUrl}/api/docs`);
    expect(page.status).toBe(200);
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('upgrade-insecure-requests');
    const html = await page.text();
    // script-src 'self' allows no inline script: every script of the page must come from here.
    const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/src=/);
      expect(body.trim()).toBe('');
    }
  });

  it('sends no CORS headers at all when CORS_ORIGINS is empty', async () => {
    const closed = await TestApp.start();
    try {
      const response = await closed.request('GET', '/api/health', { headers: { origin: UI } });
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await closed.close();
    }
  });
});
