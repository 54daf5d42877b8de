import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { request as httpRequest } from 'node:http';
import { expectErrorBody, TestApp, type ApiResponse } from '../support/test-app.js';

/** A POST whose JSON body goes out in the pieces given (Transfer-Encoding: chunked). */
function chunkedPost(
  t: TestApp,
  path: string,
  pieces: string[],
  token?: string,
): Promise<ApiResponse> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    const request = httpRequest(`${t.baseUrl}${path}`, { method: 'POST', headers }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode!, headers: new Headers(), body: JSON.parse(text) }),
      );
    });
    // The server may answer (413) and close before every piece is out.
    request.on('error', reject);
    for (const piece of pieces) request.write(piece);
    request.end();
  });
}

describe('error responses', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await TestApp.start();
    token = await t.login();
  });
  afterAll(async () => {
    await t.close();
  });

  it('unknown route: 404 with only an error field', async () => {
    const response = await t.request('GET', '/api/no-such-route', { token });
    expect(response.status).toBe(404);
    expectErrorBody(response, /no-such-route/);
  });

  it('unknown route outside /api: 404 with only an error field', async () => {
    const response = await t.request('GET', '/');
    expect(response.status).toBe(404);
    expectErrorBody(response);
  });

  it('malformed JSON: 400', async () => {
    const response = await t.request('POST', '/api/auth/login', {
      rawBody: '{"email": "admin@localhost", "password": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expectErrorBody(response, /JSON/);
  });

  it.each([
    ['"__proto__": {"role": "admin"}', '__proto__'],
    ['"constructor": {"prototype": {"role": "admin"}}', 'constructor'],
    ['"constructor": "admin"', 'constructor'],
    ['"prototype": 1', 'prototype'],
    ['"nested": [{"__proto__": 1}]', 'nested[0].__proto__'],
  ])('a prototype key in a body ({%s}): 400 naming it', async (member, path) => {
    const response = await t.request('POST', '/api/auth/login', {
      rawBody: `{"email": "admin@localhost", "password": "x", ${member}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: `${path} is not an accepted property` });
  });

  it.each(['/api/assets', '/api/relations', '/api/diagrams', '/api/users', '/api/auth/api-keys'])(
    'prototype keys in the query of %s: 400 naming them, as any unknown key',
    async (path) => {
      for (const key of ['__proto__', 'constructor', 'prototype', 'unknownKey']) {
        const response = await t.request('GET', `${path}?${key}=1`, { token });
        expect(response.status).toBe(400);
        expect(response.body).toEqual({ error: `${key} is not an accepted property` });
      }
    },
  );

  it('a body over 1 MiB: 413', async () => {
    const response = await t.request('POST', '/api/auth/login', {
      rawBody: JSON.stringify({ email: 'a@b', password: 'x'.repeat(1024 * 1024) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(413);
    expectErrorBody(response, /1048576 bytes/);
  });

  it('a body over 1 MiB sent in chunks, without Content-Length: 413', async () => {
    const response = await chunkedPost(t, '/api/auth/login', [
      '{"email": "a@b", "password": "',
      ...Array<string>(17).fill('x'.repeat(64 * 1024)),
      '"}',
    ]);
    expect(response.status).toBe(413);
    expectErrorBody(response, /1048576 bytes/);
  });

  it('a body sent in small chunks, without Content-Length, is read whole', async () => {
    const login = JSON.stringify({ email: 'admin@localhost', password: 'wrong-password-1' });
    const pieces = login.match(/.{1,5}/g) ?? [];
    const response = await chunkedPost(t, '/api/auth/login', pieces);
    expect(response.status).toBe(401);
    const ingested = await chunkedPost(
      t,
      '/api/integrations/ingest',
      JSON.stringify({ assets: [{ id: 'chunked-1', name: 'caf\u00e9' }] }).match(/.{1,3}/gu) ?? [],
      token,
    );
    expect(ingested.status).toBe(200);
    expect(ingested.body.stats.assetsCreated).toBe(1);
    const stored = await t.request('GET', '/api/assets/chunked-1', { token });
    expect(stored.body.name).toBe('caf\u00e9');
  });

  it.each(['text/plain', 'application/x-www-form-urlencoded', 'application/xml'])(
    'a %s body: 415',
    async (contentType) => {
      const response = await t.request('POST', '/api/auth/login', {
        rawBody: 'email=admin@localhost',
        headers: { 'content-type': contentType },
      });
      expect(response.status).toBe(415);
      expectErrorBody(response, /application\/json/);
    },
  );

  it('an empty JSON body counts as no body: 400 naming the missing fields', async () => {
    const response = await t.request('POST', '/api/auth/login', {
      rawBody: '',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expectErrorBody(response, /email/);
  });

  it('a JSON array where an object is expected: 400', async () => {
    const response = await t.request('POST', '/api/auth/login', { body: [1, 2] });
    expect(response.status).toBe(400);
    expectErrorBody(response);
  });

  it('a body nested deeper than 200 levels: 400, whatever its depth', async () => {
    for (const depth of [201, 100_000]) {
      const response = await t.request('POST', '/api/auth/login', {
        rawBody: `{"email": "a@b", "password": "x", "deep": ${'['.repeat(depth)}${']'.repeat(depth)}}`,
        headers: { 'content-type': 'application/json' },
      });
      expect(response.status).toBe(400);
      expectErrorBody(response, /deeper than 200 levels/);
    }
  });

  it('a NUL character in a path id: 404, not a database error', async () => {
    for (const path of ['/api/users/%00', '/api/assets/a%00b', '/api/auth/api-keys/%00']) {
      const method = path.includes('api-keys') ? 'DELETE' : 'GET';
      const response = await t.request(method, path, { token });
      expect(response.status).toBe(404);
      expectErrorBody(response);
    }
  });

  it('an id longer than any id can be: 404', async () => {
    const response = await t.request('GET', `/api/assets/${'x'.repeat(2000)}`, { token });
    expect(response.status).toBe(404);
    expectErrorBody(response);
  });

  it('a malformed percent-encoding in the path: 400', async () => {
    const response = await t.request('GET', '/api/assets/%E0%A4%A', { token });
    expect(response.status).toBe(400);
    expectErrorBody(response);
  });

  it('validation names every offending field, and an unknown property', async () => {
    const response = await t.request('POST', '/api/users', {
      token,
      body: { email: 'x', name: '', password: 'short', role: 'boss', extra: true },
    });
    expect(response.status).toBe(400);
    expectErrorBody(response);
    for (const field of ['email', 'name', 'password', 'role', 'extra']) {
      expect(response.body.error).toContain(field);
    }
  });

  it('an unexpected error: 500 telling nothing internal, logged with the request id', async () => {
    await t.dataSource.destroy();
    const response = await t.request('GET', '/api/auth/me', { token });
    expect(response.status).toBe(500);
    expectErrorBody(response, /^Internal server error \(request [0-9a-f-]{36}\)$/);
    const requestId = /request ([0-9a-f-]{36})/.exec(response.body.error)![1];
    const logged = t.logger.lines.filter((line) => line.level === 'error');
    expect(logged.some((line) => line.message.includes(requestId))).toBe(true);
    expect(logged.some((line) => /Error/.test(line.message))).toBe(true);
  });
});
