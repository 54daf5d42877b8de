// A generated Nmap XML near the 64 MiB maximum (34,000 up hosts, five open ports, an OS match
// and a two-hop trace each), ingested by a freshly started service as sent, then gzipped into
// another: the converter reads it 64 KiB per turn of the event loop, never as one string or
// tree. The figures are the service's peak resident memory and its health answers meanwhile.
import { Buffer } from 'node:buffer';
import { gzipSync } from 'node:zlib';
import { INGEST_MAX_BYTES, ingest, limitRow } from '../harness.mjs';

const PORTS = [
  [22, 'ssh', 'OpenSSH', '8.4p1 Debian 5+deb11u3'],
  [80, 'http', 'nginx', '1.18.0'],
  [443, 'https', 'nginx', '1.18.0'],
  [3306, 'mysql', 'MySQL', '8.0.36'],
  [8080, 'http-proxy', 'SimpleHTTP', '0.6 Python/3.11.7'],
];

function host(i) {
  const ip = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
  const ports = PORTS.map(
    ([port, name, product, version]) =>
      `<port protocol="tcp" portid="${port}"><state state="open" reason="syn-ack" reason_ttl="63"/><service name="${name}" product="${product}" version="${version}" method="probed" conf="10"><cpe>cpe:/a:${name}:${product}</cpe></service></port>`,
  ).join('\n');
  return `<host starttime="1700000000" endtime="1700000100"><status state="up" reason="echo-reply" reason_ttl="63"/>
<address addr="${ip}" addrtype="ipv4"/>
<hostnames><hostname name="host-${i}.example.test" type="PTR"/></hostnames>
<ports><extraports state="closed" count="995"><extrareasons reason="reset" count="995"/></extraports>
${ports}
</ports>
<os><osmatch name="Linux 5.3 - 5.4" accuracy="100" line="65000"><osclass type="general purpose" vendor="Linux" osfamily="Linux" osgen="5.X" accuracy="100"><cpe>cpe:/o:linux:linux_kernel:5</cpe></osclass></osmatch></os>
<trace port="22" proto="tcp"><hop ttl="1" ipaddr="10.255.255.${1 + (i % 8)}" rtt="0.50"/><hop ttl="2" ipaddr="${ip}" rtt="1.00"/></trace>
<times srtt="1000" rttvar="500" to="100000"/>
</host>`;
}

/** An Nmap XML document of `count` up hosts, as `nmap -sV -O --traceroute -oX` writes it. */
export function nmapXml(count) {
  const hosts = Array.from({ length: count }, (_, i) => host(i));
  return Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE nmaprun>
<nmaprun scanner="nmap" args="nmap -sV -O --traceroute -oX - 10.0.0.0/8" start="1700000000" version="7.93" xmloutputversion="1.05">
${hosts.join('\n')}
<runstats><finished time="1700009999" elapsed="9999" exit="success"/><hosts up="${count}" down="0" total="${count}"/></runstats>
</nmaprun>
`);
}

export default {
  name: 'nmap-body',
  async run(h, { quick }) {
    const count = quick ? 3_400 : 34_000;
    const body = nmapXml(count);
    if (body.length > INGEST_MAX_BYTES)
      throw new Error(`the body is over ${INGEST_MAX_BYTES} bytes`);
    const gzipped = gzipSync(body);
    const mib = (body.length / 1024 / 1024).toFixed(1);
    const rows = [];
    const detail = { bytes: body.length, gzipBytes: gzipped.length, count };
    for (const [label, bytes, headers] of [
      ['plain', body, { 'content-type': 'application/xml' }],
      ['gzip', gzipped, { 'content-type': 'application/xml', 'content-encoding': 'gzip' }],
    ]) {
      const { service } = await h.freshService(`nmap_${label}`);
      try {
        const run = await ingest(service, bytes, headers, '?source=nmap-bench');
        h.log(`  ${mib} MiB Nmap XML (${label}): ${run.ms.toFixed(0)} ms`);
        rows.push(
          limitRow(`peak RSS, ${mib} MiB Nmap XML, ${label} (MB)`, service.peakRssMb(), 600),
          limitRow(`worst /api/health answer during it, ${label} (ms)`, run.worstHealthMs, 250),
        );
        detail[label] = { ms: run.ms, stats: run.stats };
      } finally {
        await service.stop();
      }
    }
    return { rows, detail };
  },
};
