import { describe, expect, it } from '@jest/globals';
import { convertAll, fixture } from './convert-fixtures.js';
import { XmlConverter } from './xml.converter.js';

const convert = (body: Uint8Array | string, chunkSize?: number) =>
  convertAll(new XmlConverter(), body, chunkSize);

const service = (port: number, protocol: string, name: string) => ({
  port,
  protocol,
  name,
  product: null,
  version: null,
});

const report = (hosts: string) =>
  `<?xml version="1.0" ?><NessusClientData_v2><Report name="r">${hosts}</Report></NessusClientData_v2>`;

const item = (attributes: string, children = '') =>
  `<ReportItem ${attributes} pluginName="p" pluginFamily="f">${children}</ReportItem>`;

describe('Nessus v2', () => {
  it('turns each ReportHost into an asset, as the fixture shows', () => {
    const converter = new XmlConverter();
    const items = convertAll(converter, fixture('nessus/dmz-weekly.nessus'));
    expect(converter.format).toBe('nessus');
    expect(items.map((converted) => [converted.part, converted.path])).toEqual([
      ['assets', 'hosts[0]'],
      ['assets', 'hosts[1]'],
      ['assets', 'hosts[2]'],
    ]);
    const weakKex = 'The remote host is using weak key exchange algorithms.';
    const apache = 'The remote web server is affected by multiple vulnerabilities.';
    expect(items[0].value).toEqual({
      name: 'web01.example.test',
      ip: '192.0.2.20',
      addresses: ['192.0.2.20'],
      macAddresses: ['52:54:00:9a:1c:20'],
      hostnames: ['web01.example.test'],
      os_version: 'Linux Kernel 5.10 on Debian 11 (bullseye)',
      risk_score: 98,
      services: [
        service(22, 'tcp', 'ssh'),
        service(80, 'tcp', 'www'),
        service(443, 'tcp', 'www'),
        service(53, 'udp', 'dns'),
      ],
      vulnerabilities: [
        { id: 'NESSUS-153953', score: 5.3, summary: weakKex, publishedDate: null },
        {
          id: 'CVE-2023-48795',
          score: 5.9,
          summary: 'The remote SSH server is vulnerable to a mitm prefix truncation attack.',
          publishedDate: '2023-12-18',
        },
        { id: 'CVE-2021-44224', score: 9.8, summary: apache, publishedDate: '2021-12-20' },
        { id: 'CVE-2021-44790', score: 9.8, summary: apache, publishedDate: '2021-12-20' },
      ],
    });
  });

  it('names a host by its NetBIOS name without an FQDN, and keeps one service per port', () => {
    const [, host] = convert(fixture('nessus/dmz-weekly.nessus'));
    const smb = 'The remote Windows host is affected by multiple vulnerabilities.';
    expect(host.value).toEqual({
      name: 'FILESRV01',
      ip: '192.0.2.21',
      addresses: ['192.0.2.21'],
      // The first of the candidate lines.
      os_version: 'Microsoft Windows Server 2019 Standard',
      risk_score: 81,
      services: [service(445, 'tcp', 'cifs'), service(3389, 'tcp', 'msrdp')],
      vulnerabilities: [
        { id: 'CVE-2017-0143', score: 8.1, summary: smb, publishedDate: '2017-03-14' },
        { id: 'CVE-2017-0144', score: 8.1, summary: smb, publishedDate: '2017-03-14' },
        { id: 'CVE-2017-0145', score: 8.1, summary: smb, publishedDate: '2017-03-14' },
        {
          id: 'NESSUS-30218',
          score: 2.6,
          summary: 'The remote host is using an encryption level that is not FIPS-140 compliant.',
          publishedDate: null,
        },
      ],
    });
  });

  it('names a host by its ip without other names; no finding above 0 is an empty list', () => {
    const [, , host] = convert(fixture('nessus/dmz-weekly.nessus'));
    expect(host.value).toEqual({
      name: '192.0.2.22',
      ip: '192.0.2.22',
      addresses: ['192.0.2.22'],
      services: [service(9100, 'tcp', 'jetdirect')],
      vulnerabilities: [],
    });
  });

  it('gives the same items whatever the chunks', () => {
    const body = fixture('nessus/dmz-weekly.nessus');
    expect(convert(body, 1)).toEqual(convert(body, body.length));
  });

  it('falls back on the ReportHost name without host-ip, and passes odd values on as written', () => {
    const [host] = convert(
      report(
        `<ReportHost name="printer-3"><HostProperties><tag name="HOST_START">x</tag></HostProperties>${item(
          'port="x" svc_name="www" protocol="tcp" severity="3" pluginID="1"',
          '<cvss_base_score>high</cvss_base_score><vuln_publication_date>March 2020</vuln_publication_date>',
        )}</ReportHost>`,
      ),
    );
    expect(host.value).toEqual({
      name: 'printer-3',
      services: [{ port: 'x', protocol: 'tcp', name: 'www', product: null, version: null }],
      vulnerabilities: [
        { id: 'NESSUS-1', score: 'high', summary: null, publishedDate: 'March 2020' },
      ],
    });
  });

  it('keeps a CVE two plugins report once, with its highest score, CVSS v3 first', () => {
    const [host] = convert(
      report(
        `<ReportHost name="h"><HostProperties><tag name="host-ip">192.0.2.9</tag></HostProperties>${item(
          'port="80" svc_name="www" protocol="tcp" severity="2" pluginID="1"',
          '<cve>CVE-2024-0001</cve><cvss3_base_score>4.0</cvss3_base_score><cvss_base_score>9.0</cvss_base_score>',
        )}${item(
          'port="443" svc_name="www" protocol="tcp" severity="3" pluginID="2"',
          '<cve>CVE-2024-0001</cve><cvss_base_score>6.4</cvss_base_score>',
        )}</ReportHost>`,
      ),
    );
    expect(host.value).toMatchObject({
      risk_score: 64,
      vulnerabilities: [{ id: 'CVE-2024-0001', score: 6.4 }],
    });
  });

  it('counts ReportHost elements from 0 across the report', () => {
    const items = convert(report('<ReportHost name="a"/><ReportHost name="b"/>'));
    expect(items.map((converted) => [converted.path, converted.value])).toEqual([
      ['hosts[0]', { name: 'a', services: [], vulnerabilities: [] }],
      ['hosts[1]', { name: 'b', services: [], vulnerabilities: [] }],
    ]);
  });
});
