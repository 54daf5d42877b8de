import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import type { TLSSocket } from 'node:tls';
import { join } from 'node:path';
import { TestApp } from '../support/test-app.js';

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
  let folder: string;
  let cert: Buffer;
  let t: TestApp;

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'asset-map-tls-'));
    const certFile = join(folder, 'cert.pem');
    const keyFile = join(folder, 'key.pem');
    // A self-signed pair made for this run only.
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-keyout',
        keyFile,
        '-out',
        certFile,
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost',
      ],
      { stdio: 'ignore' },
    );
    cert = readFileSync(certFile);
    t = await TestApp.start({ TLS_CERT_FILE: certFile, TLS_KEY_FILE: keyFile });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(folder, { recursive: true, force: true });
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
