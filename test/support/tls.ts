import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A self-signed pair for localhost, made for this run only, in a folder of its own (openssl). */
export interface TestCertificate {
  folder: string;
  certFile: string;
  keyFile: string;
  cert: Buffer;
}

export function selfSignedCertificate(): TestCertificate {
  const folder = mkdtempSync(join(tmpdir(), 'asset-map-tls-'));
  const certFile = join(folder, 'cert.pem');
  const keyFile = join(folder, 'key.pem');
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
  return { folder, certFile, keyFile, cert: readFileSync(certFile) };
}
