import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { forgeJwt } from '../support/jwt.js';
import { rawRequest } from '../support/raw-http.js';
import { TestApp, type ApiResponse } from '../support/test-app.js';

/**
 * A battery of bad requests thrown at the real service: whatever comes in, the answer is below
 * 500, and every error is exactly `{"error": "..."}`. Each probe names itself in the failure.
 */

interface Probe {
  method: string;
  path: string;
  /** Sent as is with Content-Type: application/json. */
  body?: string;
  /** The admin's token unless set (null: no Authorization header). */
  authorization?: string | null;
}

/** One answer, checked; the probe's description is in the failure message. */
function check(what: string, status: number, body: unknown): void {
  const failure = `${what} -> ${status} ${JSON.stringify(body)}`;
  expect({ probe: failure, below500: status < 500 }).toEqual({ probe: failure, below500: true });
  if (status < 400) return;
  const wellFormed =
    typeof body === 'object' &&
    body !== null &&
    Object.keys(body).length === 1 &&
    typeof (body as { error?: unknown }).error === 'string' &&
    (body as { error: string }).error.length > 0;
  expect({ probe: failure, wellFormed }).toEqual({ probe: failure, wellFormed: true });
}

const INGEST = '/api/integrations/ingest';
const LIST_ROUTES = [
  '/api/assets',
  '/api/relations',
  '/api/diagrams',
  '/api/users',
  '/api/auth/api-keys',
];
const ID_ROUTES = [
  '/api/assets',
  '/api/relations',
  '/api/diagrams',
  '/api/users',
  '/api/auth/api-keys',
];
const BODY_ROUTES: [string, string][] = [
  ['POST', '/api/auth/login'],
  ['POST', '/api/auth/password'],
  ['POST', '/api/assets'],
  ['PUT', '/api/assets/hostile-asset'],
  ['POST', '/api/relations'],
  ['POST', '/api/diagrams'],
  ['POST', '/api/users'],
  ['POST', '/api/auth/api-keys'],
  ['POST', INGEST],
];

const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const BAD_BODIES = [
  '{',
  '}',
  'null',
  '[]',
  '"a string"',
  '12',
  'true',
  '{"a":1,}',
  "{'a':1}",
  '{"name": NaN}',
  '{"name": 1e99999}',
  '{"name": 123456789012345678901234567890}',
  '{"name": -0, "ip": 1e308, "risk_score": 1e400}',
  '{"name": "x", "risk_score": 9223372036854775807}',
  '{"name": "x", "port": -9223372036854775808}',
  '{"name": {"$gt": ""}}',
  '{"name": ["a", "b"]}',
  '{"name": "\\u0000"}',
  '{"name": "\\ud800", "type": "\\udfff"}',
  '{"name": "x", "description": "\\ud83d"}',
  `{"name": "${'x'.repeat(500_000)}"}`,
  `{"name": "x", "nested": ${deep(150)}}`,
  `{"name": ${deep(10_000)}}`,
  `{"name": "x", "tags": [${Array.from({ length: 5000 }, () => '{}').join(',')}]}`,
  '{"name": "x", "unknownKey": 1}',
  '{"name": "x", "__proto__": {"admin": true}}',
  '{"name": "x", "constructor": {"prototype": {"admin": true}}}',
  '\u00ff\u00fe{}',
  '\ufeff{"name": "x"}',
];

const BAD_IDS = [
  '%00',
  '..',
  '%2e%2e',
  '%2F',
  '-1',
  '1e999',
  '9223372036854775808',
  "'%20OR%201=1--",
  '%ED%A0%80',
  '%F0%9F',
  '%E0%A4%A',
  'x'.repeat(5000),
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffffff',
];

const BAD_PAGING = [
  'limit=-1',
  'limit=0',
  'limit=1001',
  'limit=1e3',
  'limit=5.5',
  'limit=0x10',
  'limit=%205',
  'limit=',
  'limit=abc',
  'limit=1&limit=2',
  'limit[]=1',
  'limit=Infinity',
  'limit=NaN',
  'limit=99999999999999999999999',
  'offset=-1',
  'offset=abc',
  'offset=1e400',
  'sort=nothing',
  'sort=-',
  'search=%00',
  'search=%25%5F',
  `search=${'x'.repeat(10_000)}`,
  'type[$ne]=x',
  '__proto__[x]=1',
];

const BAD_AUTHORIZATIONS = [
  '',
  'Bearer',
  'Bearer ',
  'Bearer  ',
  'Basic YWRtaW46YWRtaW4=',
  'bearer abc',
  `Bearer ${'a'.repeat(8000)}`,
  'Bearer a.b.c',
  'Bearer ...',
  'Bearer amk_',
  `Bearer amk_${'z'.repeat(500)}`,
  `Bearer ${forgeJwt({ sub: 'x', role: 'admin' }, { alg: 'none' })}`,
  `Bearer ${forgeJwt({ sub: 'x', role: 'admin' })}`,
  `Bearer ${forgeJwt({ sub: { $ne: null }, role: ['admin'], exp: 1e300 })}`,
];

/**
 * Paging values past the database's integers and lone surrogates in e-mail addresses (both gave
 * 500s), and an ingestion body nested deep outside its item arrays (never answered).
 */
const PAST_DEFECTS: Probe[] = [
  { method: 'GET', path: '/api/assets?offset=9223372036854775807' },
  { method: 'GET', path: '/api/assets?offset=99999999999999999999999999999999' },
  { method: 'POST', path: INGEST, body: `{"name": ${deep(10_000)}}` },
  { method: 'GET', path: '/api/relations?offset=9223372036854775807&limit=5' },
  { method: 'GET', path: '/api/diagrams?offset=9223372036854775807' },
  {
    method: 'POST',
    path: '/api/auth/login',
    body: '{"email": "\\ud800", "password": "whatever-password"}',
    authorization: null,
  },
  {
    method: 'POST',
    path: '/api/users',
    body: '{"email": "\\ud800@example.com", "name": "x", "password": "a-long-password-1", "role": "viewer"}',
  },
];

describe('hostile input: every answer below 500 and in the {"error"} shape', () => {
  let t: TestApp;
  let token: string;

  async function send(probe: Probe): Promise<ApiResponse> {
    const authorization =
      probe.authorization === undefined ? `Bearer ${token}` : probe.authorization;
    return t.request(probe.method, probe.path, {
      ...(probe.body !== undefined && { rawBody: probe.body }),
      headers: {
        ...(probe.body !== undefined && { 'content-type': 'application/json' }),
        ...(authorization !== null && { authorization }),
      },
    });
  }

  async function throwAll(probes: Probe[]): Promise<void> {
    for (const probe of probes) {
      const response = await send(probe);
      check(
        `${probe.method} ${probe.path.slice(0, 200)} ${probe.body?.slice(0, 120) ?? ''}`,
        response.status,
        response.body,
      );
    }
  }

  beforeAll(async () => {
    t = await TestApp.start();
    token = await t.login();
  });
  afterAll(async () => {
    await t.close();
  });

  it('malformed HTTP', async () => {
    const requests = [
      'FOO /api/health HTTP/1.1\r\nHost: x\r\n\r\n',
      'GET /api/health HTTP/1.1\r\nHost: x\r\nX: \0\r\n\r\n',
      'GET /api/health HTTP/1.1\r\nHost: x\r\nX: a\r\n b\r\n\r\n',
      'GET /api/health HTTP/1.1\nHost: x\n\n',
      'GET /api/health HTTP/9.9\r\nHost: x\r\n\r\n',
      'GET /api/health HTTP/0.9\r\n\r\n',
      'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n',
      'GET * HTTP/1.1\r\nHost: x\r\n\r\n',
      'GET http://elsewhere.example/api/health HTTP/1.1\r\nHost: x\r\n\r\n',
      'GET /api/health HTTP/1.1\r\n\r\n',
      'GET /api/health HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n',
      'GET  /api/health  HTTP/1.1\r\nHost: x\r\n\r\n',
      'GET /api/he alth HTTP/1.1\r\nHost: x\r\n\r\n',
      'GET /api/health?%ZZ=%ZZ HTTP/1.1\r\nHost: x\r\n\r\n',
      'GET /api/../api/health HTTP/1.1\r\nHost: x\r\n\r\n',
      'GET //api//health HTTP/1.1\r\nHost: x\r\n\r\n',
      `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      `GET /api/${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
      'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n\r\n',
      'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n',
      'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: identity\r\n\r\n{}',
      'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}',
      'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n',
      'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999\r\n\r\n',
      'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Length: 1e3\r\n\r\n',
      'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json; charset=latin1\r\nContent-Length: 2\r\n\r\n{}',
      'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: 2\r\n\r\n{}',
      'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: \r\nContent-Length: 2\r\n\r\n{}',
      'GET /api/auth/me HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \xff\xfe\x80\r\n\r\n',
      'GET /api/auth/me HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer a\r\nAuthorization: Bearer b\r\n\r\n',
    ];
    for (const request of requests) {
      const response = await rawRequest(t.baseUrl, request);
      const body: unknown = response.body === '' ? undefined : JSON.parse(response.body);
      check(JSON.stringify(request.slice(0, 120)), response.status, body);
      if (response.status >= 400) {
        expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      }
    }
  });

  it('bad JSON bodies on every route that takes one', async () => {
    const probes = BODY_ROUTES.flatMap(([method, path]) =>
      BAD_BODIES.filter((body) => path !== INGEST || !body.includes(deep(10_000))).map((body) => ({
        method,
        path,
        body,
      })),
    );
    await throwAll(probes);
    // And without a token, where a body is read before anything else is checked.
    await throwAll(
      BAD_BODIES.map((body) => ({
        method: 'POST',
        path: '/api/assets',
        body,
        authorization: null,
      })),
    );
  });

  it('bad ids on every route that takes one', async () => {
    const probes = ID_ROUTES.flatMap((route) =>
      BAD_IDS.flatMap((id) => [
        { method: 'GET', path: `${route}/${id}` },
        { method: 'PUT', path: `${route}/${id}`, body: '{"name": "x"}' },
        { method: 'DELETE', path: `${route}/${id}` },
      ]),
    );
    await throwAll(probes);
  });

  it('bad Authorization headers', async () => {
    const probes = BAD_AUTHORIZATIONS.flatMap((authorization) => [
      { method: 'GET', path: '/api/auth/me', authorization },
      { method: 'GET', path: '/api/assets', authorization },
      { method: 'POST', path: '/api/assets', body: '{"name": "x"}', authorization },
    ]);
    await throwAll(probes);
  });

  it('bad paging and filters on every list route', async () => {
    const probes = LIST_ROUTES.flatMap((route) =>
      BAD_PAGING.map((query) => ({ method: 'GET', path: `${route}?${query}` })),
    );
    await throwAll(probes);
  });

  it('huge paging values, lone surrogates in e-mails, a deep ingestion body', async () => {
    await throwAll(PAST_DEFECTS);
  });
});
