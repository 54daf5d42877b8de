// The scanner-format stage's bodies: a generated Nmap XML (`nmap -sV -O -oX -` as Nmap 7.93
// writes it) of `count` hosts with 5 open ports each, and the same content as the JSON body the
// service maps it to (section "Scanner formats" of docs/api.md), item for item.

import { Buffer } from 'node:buffer';

const PORTS = [
  { port: 22, name: 'ssh', product: 'OpenSSH', version: '9.2p1 Debian 2+deb12u3' },
  { port: 80, name: 'http', product: 'nginx', version: '1.22.1' },
  { port: 443, name: 'https', product: 'nginx', version: '1.22.1' },
  { port: 3306, name: 'mysql', product: 'MariaDB', version: '10.11.6' },
  { port: 8080, name: 'http-proxy', product: 'Apache Tomcat', version: '10.1.6' },
];
const VENDORS = ['Cisco Systems', 'Dell', 'Hewlett Packard Enterprise', 'Juniper Networks'];

function host(i) {
  const ip = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
  const mac = `00:1B:${[(i >> 16) & 255, (i >> 8) & 255, i & 255, 0x42].map((b) => b.toString(16).padStart(2, '0').toUpperCase()).join(':')}`;
  return {
    ip,
    mac,
    name: `host-${i}.corp.example`,
    vendor: VENDORS[i % VENDORS.length],
    os: i % 2 ? 'Linux 5.0 - 5.14' : 'Linux 4.15 - 5.8',
    type: 'general purpose',
  };
}

function hostXml(i) {
  const h = host(i);
  const ports = PORTS.map(
    (p) =>
      `<port protocol="tcp" portid="${p.port}"><state state="open" reason="syn-ack" reason_ttl="64"/>` +
      `<service name="${p.name}" product="${p.product}" version="${p.version}" method="probed" conf="10"/></port>\n`,
  ).join('');
  return (
    `<host starttime="1732440000" endtime="1732440012"><status state="up" reason="arp-response" reason_ttl="0"/>\n` +
    `<address addr="${h.ip}" addrtype="ipv4"/>\n<address addr="${h.mac}" addrtype="mac" vendor="${h.vendor}"/>\n` +
    `<hostnames>\n<hostname name="${h.name}" type="PTR"/>\n</hostnames>\n` +
    `<ports><extraports state="closed" count="995"/>\n` +
    ports +
    `</ports>\n<os><portused state="open" proto="tcp" portid="22"/>\n` +
    `<osmatch name="${h.os}" accuracy="100" line="67000">\n<osclass type="${h.type}" vendor="Linux" osfamily="Linux" osgen="5.X" accuracy="100"></osclass>\n</osmatch>\n</os>\n` +
    `<times srtt="120" rttvar="45" to="100000"/>\n</host>\n`
  );
}

/** Nmap XML of `count` hosts: its bytes. */
export function nmapXml(count) {
  const parts = [
    '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE nmaprun>\n',
    '<nmaprun scanner="nmap" args="nmap -sV -O -oX - 10.0.0.0/8" start="1732440000" version="7.93" xmloutputversion="1.05">\n',
    '<scaninfo type="syn" protocol="tcp" numservices="1000" services="1-1000"/>\n<verbose level="0"/>\n<debugging level="0"/>\n',
  ];
  for (let i = 0; i < count; i++) parts.push(hostXml(i));
  parts.push(
    `<runstats><finished time="1732443600" timestr="Sun Nov 24 10:00:00 2024" elapsed="3600" exit="success"/><hosts up="${count}" down="0" total="${count}"/></runstats>\n</nmaprun>\n`,
  );
  return Buffer.from(parts.join(''));
}

/** The same hosts as a JSON ingestion body (options `source`), as the service maps the XML. */
export function nmapAsJson(count, source) {
  const assets = [];
  for (let i = 0; i < count; i++) {
    const h = host(i);
    assets.push({
      ip: h.ip,
      macAddresses: [h.mac],
      hostnames: [h.name],
      name: h.name,
      vendor: h.vendor,
      os_version: h.os,
      type: h.type,
      services: PORTS.map((p) => ({
        port: p.port,
        protocol: 'tcp',
        name: p.name,
        product: p.product,
        version: p.version,
      })),
    });
  }
  return Buffer.from(JSON.stringify({ options: { mode: 'merge', source }, assets, relations: [] }));
}

/** How many hosts make an Nmap XML of at most `bytes`. */
export function hostsWithin(bytes) {
  const perHost = hostXml(100_000).length + 1;
  return Math.floor((bytes - 4096) / perHost);
}
