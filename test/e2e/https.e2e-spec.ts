import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { rmSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import type { TLSSocket } from 'node:tls';
import { TestApp } from '../support/test-app.js';
import { selfSignedCertificate, type TestCertificate } from '../support/tls.js';

interface TlsAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
  protocol: string | null;
}

/** A GET over TLS trusting only the test's own certificate. */
function getOverTls(url: string, ca: Buffer): Promise<TlsAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(url, { ca }, (res) => {
      const protocol = (res.socket as TLSSocket).getProtocol();
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      res.on('end', () =>
        resolve({
          status: res.statusCode!,
          headers: res.headers,
          body: JSON.parse(text),
          protocol,
        }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

describe('HTTPS with TLS_CERT_FILE and TLS_KEY_FILE', () => {
  let tls: TestCertificate;
  let cert: Buffer;
  let t: TestApp;

  beforeAll(async () => {
    tls = selfSignedCertificate();
    ({ cert } = tls);
    const { certFile, keyFile } = tls;
    t = await TestApp.start({ TLS_CERT_FILE: certFile, TLS_KEY_FILE: keyFile });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(tls.folder, { recursive: true, force: true });
  });

  it('answers over TLS, with HSTS', async () => {
    expect(t.baseUrl).toMatch(/^https:\/\/localhost:\d+$/);
    const answer = await getOverTls(`${t.baseUrl}/api/health`, cert);
    expect(answer.status).toBe(200);
    expect(answer.body.status).toBe('ok');
    expect(answer.protocol).toMatch(/^TLSv1\.[23]$/);
    expect(answer.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });

  it('refuses a client that does not trust its certificate, and plain HTTP on the same port', async () => {
    await expect(getOverTls(`${t.baseUrl}/api/health`, Buffer.from(''))).rejects.toThrow();
    const plain = t.baseUrl.replace('https:', 'http:');
    const outcome = await fetch(`${plain}/api/health`).then(
      (response) => response.status,
      () => 'refused',
    );
    expect(outcome).not.toBe(200);
  });
});
