import { describe, expect, it } from '@jest/globals';
import type { FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { createGzip, gzipSync } from 'node:zlib';
import { bodyEncodingOf, readBody } from './read-body.js';

const LIMIT = 1024 * 1024;

function read(payload: Readable, headers: Record<string, string> = {}) {
  const request = { routeOptions: { bodyLimit: LIMIT }, headers, raw: {} } as FastifyRequest;
  return new Promise<{ error: (Error & { code?: string }) | null; body?: Buffer }>((resolve) =>
    readBody(request, payload, (error, body) => resolve({ error, body }), 'gzip'),
  );
}

describe('readBody, gzip', () => {
  it('inflates the body as it comes', async () => {
    const text = 'name,ip\n'.repeat(10_000);
    const zipped = gzipSync(text);
    const pieces = [zipped.subarray(0, 100), zipped.subarray(100)];
    const { error, body } = await read(Readable.from(pieces), {
      'content-length': String(zipped.length),
    });
    expect(error).toBeNull();
    expect(body!.toString()).toBe(text);
  });

  it('stops inflating once past the limit: an endless gzip stream gets its 413', async () => {
    // Inflating it whole would never end.
    const zeros = new Readable({
      read() {
        this.push(Buffer.alloc(64 * 1024));
      },
    });
    const endless = zeros.pipe(createGzip());
    const { error } = await read(endless);
    expect(error?.code).toBe('FST_ERR_CTP_BODY_TOO_LARGE');
    zeros.destroy();
    endless.destroy();
  });

  it('refuses bytes that are no gzip, and a truncated body, with a 400', async () => {
    const zipped = gzipSync('name\nx\n');
    for (const bytes of [Buffer.from('name\nx\n'), zipped.subarray(0, zipped.length - 4)]) {
      const { error } = await read(Readable.from([bytes]));
      expect(error).toMatchObject({ status: 400 });
      expect(error?.message).toMatch(/^the gzip body is corrupt: /);
    }
  });
});

describe('bodyEncodingOf', () => {
  it('takes gzip (x-gzip) and identity, any case; none is identity', () => {
    expect(bodyEncodingOf({})).toBe('identity');
    expect(bodyEncodingOf({ 'content-encoding': 'Identity' })).toBe('identity');
    expect(bodyEncodingOf({ 'content-encoding': 'GZIP' })).toBe('gzip');
    expect(bodyEncodingOf({ 'content-encoding': 'x-gzip' })).toBe('gzip');
  });

  it('refuses any other with a 415 naming it', () => {
    for (const encoding of ['br', 'deflate', 'gzip, gzip']) {
      expect(() => bodyEncodingOf({ 'content-encoding': encoding })).toThrow(
        `Content-Encoding must be gzip or identity, got ${encoding}`,
      );
    }
  });
});
