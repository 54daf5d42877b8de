import { describe, expect, it } from '@jest/globals';
import { convertAll, fixture, service } from './convert-fixtures.js';
import { XmlConverter } from './xml.converter.js';

const result = (host: string, port: string, severity: string, nvt: string, name = 'r') =>
  `<result id="x"><name>${name}</name><host>${host}</host><port>${port}</port>${nvt}<severity>${severity}</severity></result>`;

const report = (results: string, hosts = '') =>
  `<report id="r" format_id="f"><report id="r"><results start="1" max="-1">${results}</results>${hosts}</report></report>`;

describe('Greenbone / OpenVAS', () => {
  it('turns a get_reports response into an asset per result address, as the fixture shows', () => {
    for (const chunkSize of [13, 4096]) {
      const converter = new XmlConverter();
      const items = convertAll(converter, fixture('greenbone/dmz-report.xml'), chunkSize);
      expect(converter.format).toBe('greenbone');
      const apache =
        'Apache HTTP Server 2.4.49 Path Traversal and Remote Code Execution Vulnerability';
      expect(items).toEqual([
        {
          part: 'assets',
          path: 'results[0]',
          value: {
            // The host's first hostname detail, before the results' own host names.
            name: 'web01.example.test',
            hostnames: ['web01.example.test'],
            ip: '192.0.2.20',
            addresses: ['192.0.2.20'],
            services: [service(443, 'tcp'), service(22, 'tcp')],
            vulnerabilities: [
              { id: 'CVE-2021-41773', score: 7.5, summary: apache, publishedDate: null },
              { id: 'CVE-2021-42013', score: 7.5, summary: apache, publishedDate: null },
              {
                id: 'CVE-2023-48795',
                score: 5.9,
                summary: 'SSH Prefix Truncation Vulnerability (Terrapin Attack)',
                publishedDate: null,
              },
            ],
          },
        },
        {
          part: 'assets',
          path: 'results[3]',
          value: {
            name: '198.51.100.30',
            ip: '198.51.100.30',
            addresses: ['198.51.100.30'],
            services: [],
            vulnerabilities: [
              {
                id: 'OPENVAS-1.3.6.1.4.1.25623.1.0.80091',
                score: 2.6,
                summary: 'TCP Timestamps Information Disclosure',
                publishedDate: null,
              },
            ],
          },
        },
      ]);
    }
  });

  it('takes a bare report, the result host name when no detail gives one, and pre-GMP 8 cve texts', () => {
    const nvt = (cves: string) => `<nvt oid="1.3.6.1.4.1.25623.1.0.1"><cve>${cves}</cve></nvt>`;
    const items = convertAll(
      new XmlConverter('greenbone'),
      report(
        result(
          '192.0.2.5<hostname>db.example.test</hostname>',
          '5432/tcp',
          '9.0',
          nvt('CVE-2019-9193, cve-2018-1058'),
        ) +
          result('192.0.2.5', '5432/tcp', '4.3', nvt('NOCVE'), 'weak ciphers') +
          result('192.0.2.6', 'general/icmp', '0.0', nvt('NOCVE')),
      ),
    );
    expect(items.map((item) => item.value)).toEqual([
      {
        name: 'db.example.test',
        hostnames: ['db.example.test'],
        ip: '192.0.2.5',
        addresses: ['192.0.2.5'],
        services: [service(5432, 'tcp')],
        vulnerabilities: [
          { id: 'CVE-2019-9193', score: 9, summary: 'r', publishedDate: null },
          { id: 'CVE-2018-1058', score: 9, summary: 'r', publishedDate: null },
          {
            id: 'OPENVAS-1.3.6.1.4.1.25623.1.0.1',
            score: 4.3,
            summary: 'weak ciphers',
            publishedDate: null,
          },
        ],
      },
      // A host with only log results: its list is cleared.
      {
        name: '192.0.2.6',
        ip: '192.0.2.6',
        addresses: ['192.0.2.6'],
        services: [],
        vulnerabilities: [],
      },
    ]);
  });

  it('passes odd values on for the validator', () => {
    const items = convertAll(
      new XmlConverter(),
      report(result('not an address', '80/tcp', 'high', '<nvt oid="1.2"/>')),
    );
    expect(items[0].value).toMatchObject({
      ip: 'not an address',
      vulnerabilities: [{ id: 'OPENVAS-1.2', score: 'high' }],
    });
  });

  it('refuses a response that reports a failure', () => {
    expect(() =>
      convertAll(
        new XmlConverter(),
        '<get_reports_response status="404" status_text="Failed to find report"/>',
      ),
    ).toThrow('the Greenbone response reports a failure: status 404 (Failed to find report)');
  });
});
