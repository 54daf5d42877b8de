import { describe, expect, it } from '@jest/globals';
import { converterFor } from './convert-body.js';
import { convertAll, fixture } from './convert-fixtures.js';
import { chooseFormat } from './format-choice.js';
import { hostOf } from './nuclei.converter.js';

const nuclei = (mediaType = 'application/x-ndjson') =>
  converterFor(chooseFormat(mediaType, 'nuclei')!);

const line = (fields: Record<string, unknown>) =>
  JSON.stringify({ 'template-id': 't', info: { name: 'n', severity: 'low' }, ...fields });

describe('Nuclei', () => {
  it('groups the results by ip (else host name), a vulnerability each, as the fixture shows', () => {
    for (const chunkSize of [17, 4096]) {
      const items = convertAll(nuclei(), fixture('nuclei/results.jsonl'), chunkSize);
      expect(items).toEqual([
        {
          part: 'assets',
          path: 'results[0]',
          value: {
            name: 'www.example.test',
            hostnames: ['www.example.test'],
            ip: '192.0.2.20',
            addresses: ['192.0.2.20'],
            vulnerabilities: [
              {
                id: 'CVE-2021-41773',
                score: 7.5,
                summary: 'Apache 2.4.49 - Path Traversal and Remote Code Execution',
                publishedDate: null,
              },
              {
                id: 'NUCLEI-http-missing-security-headers',
                score: 0,
                summary: 'HTTP Missing Security Headers',
                publishedDate: null,
              },
              {
                id: 'NUCLEI-weak-cipher-suites',
                score: 1,
                summary: 'Weak Cipher Suites Detection',
                publishedDate: null,
              },
            ],
          },
        },
        {
          part: 'assets',
          path: 'results[2]',
          value: {
            name: 'ssh.example.test',
            hostnames: ['ssh.example.test'],
            ip: '198.51.100.30',
            addresses: ['198.51.100.30'],
            vulnerabilities: [
              {
                id: 'CVE-2023-48795',
                score: 5.9,
                summary: 'SSH Terrapin Attack - Detection',
                publishedDate: null,
              },
            ],
          },
        },
        {
          part: 'assets',
          path: 'results[4]',
          value: {
            name: '198.51.100.40',
            ip: '198.51.100.40',
            addresses: ['198.51.100.40'],
            vulnerabilities: [
              {
                id: 'NUCLEI-exposed-redis',
                score: 9,
                summary: 'Redis Server - Unauthenticated Access',
                publishedDate: null,
              },
            ],
          },
        },
      ]);
    }
  });

  it('scores by severity without cvss-score; a result without ip is grouped by host name', () => {
    const body = [
      line({ host: 'https://app.example.test/login', info: { name: 'a', severity: 'critical' } }),
      line({
        host: 'app.example.test:8443',
        'template-id': 'u',
        info: { name: 'b', severity: 'unknown' },
      }),
      line({
        host: 'app.example.test',
        info: { name: 'c', severity: 'medium' },
        'template-id': 'v',
      }),
    ].join('\n');
    expect(convertAll(nuclei('application/json'), body).map((item) => item.value)).toEqual([
      {
        name: 'app.example.test',
        hostnames: ['app.example.test'],
        vulnerabilities: [
          { id: 'NUCLEI-t', score: 9, summary: 'a', publishedDate: null },
          { id: 'NUCLEI-u', score: null, summary: 'b', publishedDate: null },
          { id: 'NUCLEI-v', score: 4, summary: 'c', publishedDate: null },
        ],
      },
    ]);
  });

  it('takes a JSON array of results (-je), named by their index', () => {
    const body = `[${line({ ip: '192.0.2.1' })},${line({ ip: '192.0.2.2' })}]`;
    expect(convertAll(nuclei('application/json'), body).map((item) => item.path)).toEqual([
      'results[0]',
      'results[1]',
    ]);
  });

  it('names a line that is no object, or not JSON, by its number from 0', () => {
    expect(() => convertAll(nuclei(), `${line({ ip: '192.0.2.1' })}\n"text"\n`)).toThrow(
      'results[1] must be a JSON object',
    );
    expect(() => convertAll(nuclei(), `${line({ ip: '192.0.2.1' })}\n{"ip": }\n`)).toThrow(
      /^the Nuclei body is not valid JSON: .* \(line 2\)$/,
    );
  });

  it('reads host names and addresses out of host', () => {
    expect(hostOf('https://user@www.example.test:8443/a?b')).toEqual({ name: 'www.example.test' });
    expect(hostOf('192.0.2.7:22')).toEqual({ address: '192.0.2.7' });
    expect(hostOf('http://[2001:db8::7]:80/')).toEqual({ address: '2001:db8::7' });
    expect(hostOf('2001:db8::8')).toEqual({ address: '2001:db8::8' });
    expect(hostOf('')).toEqual({});
  });
});
