import { describe, expect, it } from '@jest/globals';
import { convertAll, fixture } from './convert-fixtures.js';
import { XmlConverter } from './xml.converter.js';

const convert = (body: Uint8Array | string, chunkSize?: number) =>
  convertAll(new XmlConverter(), body, chunkSize);

const ssh84 = {
  port: 22,
  protocol: 'tcp',
  name: 'ssh',
  product: 'OpenSSH',
  version: '8.4p1 Debian 5+deb11u3',
};
const proxy8080 = {
  port: 8080,
  protocol: 'tcp',
  name: 'http-proxy',
  product: 'SimpleHTTP/0.6 Python/3.11.7',
  version: null,
};
const gwRoute = {
  part: 'relations',
  path: 'hosts[0].trace.hop[1]',
  value: {
    sourceAssetIp: '192.0.2.2',
    targetAssetIp: '198.51.100.10',
    type: 'route',
    direction: 'mono',
  },
};

/** A document of hosts written inline, as Nmap writes them. */
const nmaprun = (hosts: string) => `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE nmaprun>
<nmaprun scanner="nmap">${hosts}</nmaprun>`;

const upHost = (ip: string, inner = '') =>
  `<host><status state="up"/><address addr="${ip}" addrtype="ipv4"/>${inner}</host>`;

const trace = (...hops: [ttl: number, ip: string][]) =>
  `<trace>${hops.map(([ttl, ip]) => `<hop ttl="${ttl}" ipaddr="${ip}" rtt="1.0"/>`).join('')}</trace>`;

describe('Nmap XML', () => {
  it('turns a host into an asset: its hostname, ip and open services', () => {
    const converter = new XmlConverter();
    expect(converter.format).toBeNull();
    expect(convertAll(converter, fixture('nmap/loopback-sv.xml'))).toEqual([
      {
        part: 'assets',
        path: 'hosts[0]',
        value: {
          name: 'localhost',
          ip: '127.0.0.1',
          addresses: ['127.0.0.1'],
          hostnames: ['localhost'],
          services: [
            { port: 21, protocol: 'tcp', name: 'ftp', product: 'vsftpd', version: '3.0.3' },
            {
              port: 22,
              protocol: 'tcp',
              name: 'ssh',
              product: 'OpenSSH',
              version: '9.2p1 Debian 2+deb12u3',
            },
            { port: 25, protocol: 'tcp', name: 'smtp', product: 'Postfix smtpd', version: null },
            {
              port: 80,
              protocol: 'tcp',
              name: 'http',
              product: 'SimpleHTTP/0.6 Python/3.11.7',
              version: null,
            },
          ],
        },
      },
    ]);
    expect(converter.format).toBe('nmap');
  });

  it('gives the same items whatever the chunks, down to one byte at a time', () => {
    const body = fixture('nmap/routed-os-trace.xml');
    expect(convert(body, 1)).toEqual(convert(body, body.length));
  });

  it('counts every host element, up or down, and leaves out the down ones and host hints', () => {
    const items = convert(fixture('nmap/routed-os-trace.xml'));
    expect(items.map((item) => item.path)).toEqual([
      'hosts[0]',
      'hosts[2]',
      'hosts[2].trace.hop[1]',
    ]);
  });

  it('takes the MAC vendor, the most accurate OS match and its first class, open ports only', () => {
    const [router, host, route] = convert(fixture('nmap/routed-os-trace.xml'));
    expect(router.value).toEqual({
      name: '192.0.2.2',
      ip: '192.0.2.2',
      addresses: ['192.0.2.2'],
      macAddresses: ['52:54:00:12:34:56'],
      type: 'general purpose',
      vendor: 'QEMU virtual NIC',
      os_version: 'Linux 5.3 - 5.4',
      services: [
        { port: 22, protocol: 'tcp', name: 'ssh', product: 'Dropbear sshd', version: '2022.83' },
        {
          port: 80,
          protocol: 'tcp',
          name: 'http',
          product: 'SimpleHTTP/0.6 Python/3.11.7',
          version: null,
        },
      ],
    });
    expect(host.value).toEqual({
      name: '198.51.100.10',
      ip: '198.51.100.10',
      addresses: ['198.51.100.10'],
      type: 'general purpose',
      os_version: 'Linux 5.3 - 5.4',
      services: [ssh84, proxy8080],
    });
    // The router is a scanned host: the route names it, and it is not added again as a hop.
    expect(route).toEqual({ ...gwRoute, path: 'hosts[2].trace.hop[1]' });
  });

  it('makes a hop that is no scanned host an asset, named by its reverse DNS name', () => {
    expect(convert(fixture('nmap/hop-names.xml'))).toEqual([
      {
        part: 'assets',
        path: 'hosts[0]',
        value: {
          name: 'web01.example.test',
          ip: '198.51.100.10',
          addresses: ['198.51.100.10'],
          hostnames: ['web01.example.test'],
          services: [ssh84, proxy8080],
        },
      },
      {
        part: 'assets',
        path: 'hosts[0].trace.hop[0]',
        value: { name: 'gw.example.test', ip: '192.0.2.2' },
      },
      gwRoute,
    ]);
  });

  it('takes the CVE entries of a vulners script, and the highest score x 10 as risk', () => {
    const [host] = convert(fixture('nmap/vulners.xml'));
    const cve = (id: string, score: number) => ({ id, score, summary: null, publishedDate: null });
    expect(host.value).toMatchObject({
      risk_score: 98,
      vulnerabilities: [
        cve('CVE-2023-38408', 9.8),
        cve('CVE-2020-15778', 7.8),
        cve('CVE-2021-41617', 7),
        cve('CVE-2023-51385', 6.5),
        cve('CVE-2023-48795', 5.9),
      ],
    });
  });

  it('takes an IPv6 address when the host has no IPv4 one', () => {
    const [host] = convert(fixture('nmap/loopback-ipv6.xml'));
    expect(host.value).toMatchObject({ name: 'localhost', ip: '::1' });
  });

  it('prefers the IPv4 address, and leaves out vulnerabilities and risk without a vulners script', () => {
    const [host] = convert(
      nmaprun(
        `<host><status state="up"/><address addr="2001:db8::5" addrtype="ipv6"/><address addr="192.0.2.5" addrtype="ipv4"/></host>`,
      ),
    );
    expect(host.value).toEqual({
      name: '192.0.2.5',
      ip: '192.0.2.5',
      addresses: ['192.0.2.5', '2001:db8::5'],
      services: [],
    });
  });

  it('gives every address (IPv4 first), MAC address and host name, leaving out what no list takes', () => {
    const [host] = convert(
      nmaprun(
        `<host><status state="up"/><address addr="2001:db8::5" addrtype="ipv6"/><address addr="192.0.2.5" addrtype="ipv4"/><address addr="192.0.2.6" addrtype="ipv4"/><address addr="52:54:00:AA:BB:CC" addrtype="mac" vendor="QEMU"/><hostnames><hostname name="web.example" type="user"/><hostname name="Web.Example.PTR" type="PTR"/><hostname name="bad name" type="PTR"/></hostnames></host>`,
      ),
    );
    expect(host.value).toEqual({
      name: 'web.example',
      ip: '192.0.2.5',
      addresses: ['192.0.2.5', '192.0.2.6', '2001:db8::5'],
      macAddresses: ['52:54:00:AA:BB:CC'],
      hostnames: ['web.example', 'Web.Example.PTR'],
      vendor: 'QEMU',
      services: [],
    });
  });

  it('keeps a CVE found on two ports once, with its highest score', () => {
    const vulners = (score: string) =>
      `<script id="vulners" output=""><table key="cpe:/a:x"><table><elem key="cvss">${score}</elem><elem key="id">CVE-2024-0001</elem><elem key="type">cve</elem></table></table></script>`;
    const port = (id: number, score: string) =>
      `<port protocol="tcp" portid="${id}"><state state="open"/><service name="http"/>${vulners(score)}</port>`;
    const [host] = convert(
      nmaprun(upHost('192.0.2.5', `<ports>${port(80, '5.0')}${port(8080, '7.5')}</ports>`)),
    );
    expect(host.value).toMatchObject({
      risk_score: 75,
      vulnerabilities: [{ id: 'CVE-2024-0001', score: 7.5, summary: null, publishedDate: null }],
    });
  });

  it('takes the first of equally accurate OS matches, and a later more accurate one', () => {
    const osmatch = (name: string, accuracy: number, type: string) =>
      `<osmatch name="${name}" accuracy="${accuracy}"><osclass type="${type}"/><osclass type="other"/></osmatch>`;
    const [first, later] = convert(
      nmaprun(
        upHost('192.0.2.5', `<os>${osmatch('A', 90, 'router')}${osmatch('B', 90, 'switch')}</os>`) +
          upHost('192.0.2.6', `<os>${osmatch('A', 90, 'router')}${osmatch('C', 95, 'WAP')}</os>`),
      ),
    );
    expect(first.value).toMatchObject({ os_version: 'A', type: 'router' });
    expect(later.value).toMatchObject({ os_version: 'C', type: 'WAP' });
  });

  it('passes a port that is not a number on as written, and gives no service for IP protocol scans', () => {
    const [host] = convert(
      nmaprun(
        upHost(
          '192.0.2.5',
          '<ports><port protocol="tcp" portid="x1"><state state="open"/></port><port protocol="ip" portid="6"><state state="open"/></port><port protocol="udp" portid="53"><state state="open|filtered"/></port></ports>',
        ),
      ),
    );
    expect(host.value).toHaveProperty('services', [
      { port: 'x1', protocol: 'tcp', name: null, product: null, version: null },
    ]);
  });

  it('links only hops one TTL apart, and each route and hop once', () => {
    const items = convert(
      nmaprun(
        upHost('192.0.2.10', trace([1, '192.0.2.1'], [3, '192.0.2.3'], [4, '192.0.2.10'])) +
          upHost('192.0.2.11', trace([1, '192.0.2.1'], [2, '192.0.2.3'], [3, '192.0.2.11'])) +
          upHost('192.0.2.12', trace([1, '192.0.2.1'], [2, '192.0.2.3'], [3, '192.0.2.12'])),
      ),
    );
    const route = (path: string, source: string, target: string) => ({
      part: 'relations',
      path,
      value: { sourceAssetIp: source, targetAssetIp: target, type: 'route', direction: 'mono' },
    });
    expect(items.slice(3)).toEqual([
      {
        part: 'assets',
        path: 'hosts[0].trace.hop[0]',
        value: { name: '192.0.2.1', ip: '192.0.2.1' },
      },
      {
        part: 'assets',
        path: 'hosts[0].trace.hop[1]',
        value: { name: '192.0.2.3', ip: '192.0.2.3' },
      },
      route('hosts[0].trace.hop[2]', '192.0.2.3', '192.0.2.10'),
      route('hosts[1].trace.hop[1]', '192.0.2.1', '192.0.2.3'),
      route('hosts[1].trace.hop[2]', '192.0.2.3', '192.0.2.11'),
      route('hosts[2].trace.hop[2]', '192.0.2.3', '192.0.2.12'),
    ]);
  });

  it('adds no hop asset for a hop that a later host element scans', () => {
    const items = convert(
      nmaprun(
        upHost('192.0.2.10', trace([1, '192.0.2.1'], [2, '192.0.2.10'])) + upHost('192.0.2.1'),
      ),
    );
    expect(items.map((item) => item.path)).toEqual([
      'hosts[0]',
      'hosts[1]',
      'hosts[0].trace.hop[1]',
    ]);
  });

  it('hands each host out as soon as its element closes, not at the end', () => {
    const converter = new XmlConverter();
    const hosts = Array.from({ length: 3 }, (_, i) => upHost(`192.0.2.${i}`)).join('');
    const [head, tail] = nmaprun(hosts).split('</nmaprun>');
    expect(converter.write(head.slice(0, -10)).map((item) => item.path)).toEqual([
      'hosts[0]',
      'hosts[1]',
    ]);
    expect(converter.write(head.slice(-10)).map((item) => item.path)).toEqual(['hosts[2]']);
    converter.write(`</nmaprun>${tail}`);
    expect([...converter.end()]).toEqual([]);
  });

  it('decodes UTF-8 split across chunks', () => {
    const body = Buffer.from(
      nmaprun(
        upHost(
          '192.0.2.5',
          '<hostnames><hostname name="café.example.test" type="PTR"/></hostnames>',
        ),
      ),
    );
    expect(convert(body, 1)[0].value).toHaveProperty('name', 'café.example.test');
  });
});
