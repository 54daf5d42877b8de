import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { securityHeaderSets } from '../../src/common/security-headers.js';
import {
  parseRawResponse,
  rawRequest,
  untilClosed,
  type RawResponse,
} from '../support/raw-http.js';
import { TestApp } from '../support/test-app.js';

const API_HEADERS = securityHeaderSets().api;
const MiB = 1024 * 1024;

/** `{"error": "..."}` and nothing else, with the headers every answer of the API carries. */
function expectInShape(response: Omit<RawResponse, 'socketError'>, status: number, error?: RegExp) {
  expect(response.status).toBe(status);
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  for (const [name, value] of Object.entries(API_HEADERS)) {
    expect(response.headers[name]).toBe(value);
  }
  expect(response.headers['x-request-id']).toMatch(/^[\w.:-]{8,128}$/);
  const body = JSON.parse(response.body) as Record<string, unknown>;
  expect(Object.keys(body)).toEqual(['error']);
  expect(typeof body.error).toBe('string');
  if (error) expect(body.error).toMatch(error);
}

const GET = (path: string, extra = '') => `GET ${path} HTTP/1.1\r\nHost: x\r\n${extra}\r\n`;
const POST_JSON = (path: string, headers: string) =>
  `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n${headers}\r\n`;

describe('HTTP-level errors and limits, in the contract shape', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await TestApp.start({
      HTTP_HEADERS_TIMEOUT_S: '1',
      HTTP_REQUEST_TIMEOUT_S: '2',
      HTTP_KEEP_ALIVE_TIMEOUT_S: '1',
      INGEST_MAX_BYTES: String(2 * MiB),
    });
    token = await t.login();
  });
  afterAll(async () => {
    await t.close();
  });

  describe('requests the HTTP parser refuses: 400 {"error"}, connection closed', () => {
    it.each([
      ['an unknown method', 'FOO /api/health HTTP/1.1\r\nHost: x\r\n\r\n', /method/],
      ['a NUL in a header', GET('/api/health', 'X-Test: a\0b\r\n'), /header/],
      ['an obs-folded header', GET('/api/health', 'X-Test: a\r\n b\r\n'), /Malformed/],
      ['bare LF line ends', 'GET /api/health HTTP/1.1\nHost: x\n\n', /Malformed/],
      ['HTTP/9.9', 'GET /api/health HTTP/9.9\r\nHost: x\r\n\r\n', /version/],
      ['the HTTP/2 preface', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', /Malformed/],
      [
        'bad chunking',
        `${POST_JSON('/api/auth/login', 'Transfer-Encoding: chunked\r\n')}zz\r\n{}\r\n0\r\n\r\n`,
        /chunk/,
      ],
      [
        'Content-Length with Transfer-Encoding',
        `${POST_JSON('/api/auth/login', 'Content-Length: 2\r\nTransfer-Encoding: chunked\r\n')}0\r\n\r\n`,
        /Content-Length/,
      ],
      [
        'two Content-Lengths',
        `${POST_JSON('/api/auth/login', 'Content-Length: 2\r\nContent-Length: 3\r\n')}{}`,
        /Content-Length/,
      ],
    ])('%s', async (_what, request, error) => {
      const response = await rawRequest(t.baseUrl, request);
      expectInShape(response, 400, error);
      expect(response.headers.connection).toBe('close');
    });

    it('headers over 16 KB: 431', async () => {
      const response = await rawRequest(
        t.baseUrl,
        GET('/api/health', `X-Big: ${'a'.repeat(17_000)}\r\n`),
      );
      expectInShape(response, 431, /16384 bytes/);
      expect(response.headers.connection).toBe('close');
    });

    it('an HTTP/1.1 request without Host: 400', async () => {
      const response = await rawRequest(t.baseUrl, 'GET /api/health HTTP/1.1\r\n\r\n');
      expectInShape(response, 400, /Host/);
      expect(response.headers.connection).toBe('close');
    });

    it('the service goes on serving after all of them', async () => {
      const response = await rawRequest(t.baseUrl, GET('/api/health', 'Connection: close\r\n'));
      expect(response.status).toBe(200);
    });
  });

  describe('unknown routes and methods', () => {
    it.each([
      ['GET', '/api/no-such-route'],
      ['GET', '/no-such-route'],
      ['DELETE', '/api/health'],
      ['PATCH', '/api/assets'],
      ['OPTIONS', '/api/assets'],
      ['PROPFIND', '/api/assets'],
    ])('%s %s: 404 {"error"}', async (method, path) => {
      const response = await rawRequest(
        t.baseUrl,
        `${method} ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n\r\n`,
      );
      expectInShape(response, 404, new RegExp(`${method} ${path}`));
    });

    it('HEAD gets the headers of GET and no body', async () => {
      for (const [path, status] of [
        ['/api/health', 200],
        ['/api/no-such-route', 404],
      ] as const) {
        const response = await rawRequest(t.baseUrl, `HEAD ${path} HTTP/1.1\r\nHost: x\r\n\r\n`);
        expect(response.status).toBe(status);
        expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(response.headers['x-frame-options']).toBe(API_HEADERS['x-frame-options']);
        expect(response.body).toBe('');
      }
    });
  });

  describe('timeouts (here 1 s for headers, 2 s for a whole request, 1 s idle)', () => {
    it('a connection that sends nothing gets a 408 and is closed', async () => {
      const received = await untilClosed(t.baseUrl);
      expectInShape(parseRawResponse(Buffer.from(received))!, 408, /not received in time/);
    });

    it('headers that never end: 408', async () => {
      const received = await untilClosed(t.baseUrl, 'GET /api/health HTTP/1.1\r\nHost: x\r\n');
      expectInShape(parseRawResponse(Buffer.from(received))!, 408, /headers are due within 1 s/);
    });

    it('a body that never ends: 408, with its request id', async () => {
      const received = await untilClosed(
        t.baseUrl,
        `${POST_JSON('/api/auth/login', 'Content-Length: 100\r\nX-Request-Id: slow-body-request\r\n')}{"email":`,
      );
      const response = parseRawResponse(Buffer.from(received))!;
      expectInShape(response, 408, /whole request within 2 s/);
      expect(response.headers['x-request-id']).toBe('slow-body-request');
    });

    it('an idle kept-alive connection is closed after its answer', async () => {
      const received = await untilClosed(t.baseUrl, GET('/api/health'));
      expect(parseRawResponse(Buffer.from(received))!.status).toBe(200);
    });
  });

  describe('a body over the limit, sent without Expect: 100-continue', () => {
    /** The upload, sent whole before reading: the 413 is read, and nothing failed on the way. */
    async function expectReadable413(
      path: string,
      headers: string,
      pieces: (string | Buffer)[],
      limit: number,
    ) {
      const response = await rawRequest(t.baseUrl, POST_JSON(path, headers), { then: pieces });
      expectInShape(response, 413, new RegExp(`${limit} bytes`));
      expect(response.socketError).toBeNull();
    }

    it('the client reads the 413 instead of a reset connection', async () => {
      // Each was as likely to end in EPIPE as in the 413 when the connection closed at once.
      for (const size of [1.5, 3, 5, 8, 12, 3, 5].map((mebibytes) => mebibytes * MiB)) {
        await expectReadable413(
          '/api/auth/login',
          `Content-Length: ${size}\r\n`,
          [Buffer.alloc(size, ' ')],
          MiB,
        );
      }
    });

    it('the same without Content-Length (chunked)', async () => {
      const chunk = `${(256 * 1024).toString(16)}\r\n${' '.repeat(256 * 1024)}\r\n`;
      await expectReadable413(
        '/api/auth/login',
        'Transfer-Encoding: chunked\r\n',
        [...Array<string>(8).fill(chunk), '0\r\n\r\n'],
        MiB,
      );
    });

    it('the same on the ingestion route', async () => {
      const size = 3 * MiB;
      await expectReadable413(
        '/api/integrations/ingest',
        `Authorization: Bearer ${token}\r\nContent-Length: ${size}\r\n`,
        [Buffer.alloc(size, ' ')],
        2 * MiB,
      );
    });

    it('what it reads and drops is bounded: the connection is cut past the bound', async () => {
      const size = 40 * MiB;
      const response = await rawRequest(
        t.baseUrl,
        POST_JSON('/api/auth/login', `Content-Length: ${size}\r\n`),
        { then: [Buffer.alloc(size, ' ')] },
      ).catch((error: Error) => error);
      // Cut while we were still sending: a reset, whether or not the 413 was read first.
      const failed = response instanceof Error ? response.message : response.socketError;
      expect(failed).toMatch(/ECONNRESET|EPIPE/);
    });
  });
});
