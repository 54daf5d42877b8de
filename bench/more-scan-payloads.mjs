// The formats stage's bodies of Greenbone, masscan, Nuclei and Trivy output, each with the same
// content as a JSON body the service maps it to (section "Scanner formats" of docs/api.md),
// item for item: `count` hosts (Trivy: `count` images of 50 vulnerabilities each).

import { Buffer } from 'node:buffer';

const SEVERITIES = ['critical', 'high', 'medium', 'low'];
const SEVERITY_SCORES = { critical: 9, high: 7, medium: 4, low: 1 };

function ipOf(i) {
  return `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
}

/** The two CVEs of host `i` (distinct), with their scores. */
function cvesOf(i) {
  return [
    { id: `CVE-2023-${10000 + (i % 40000)}`, score: 5 + (i % 50) / 10 },
    { id: `CVE-2024-${10000 + ((i * 7) % 40000)}`, score: (i % 90) / 10 + 0.5 },
  ];
}

function jsonBody(assets, source) {
  return Buffer.from(JSON.stringify({ options: { mode: 'merge', source }, assets, relations: [] }));
}

const vulnerability = (id, score, summary, publishedDate = null) => ({
  id,
  score,
  summary,
  publishedDate,
});

// Greenbone: a result per port (22 and 443 with a CVE each, 80 a log result of severity 0),
// then the report's host elements with their hostname detail.

function greenboneResult(i, r, port, cve, severity, name) {
  const refs = cve
    ? `<ref type="cve" id="${cve}"/><ref type="url" id="https://nvd.nist.gov/vuln/detail/${cve}"/>`
    : '';
  return (
    `<result id="${i}-${r}"><name>${name}</name><creation_time>2025-11-28T10:31:02Z</creation_time>` +
    `<host>${ipOf(i)}<asset asset_id="a-${i}"/><hostname>host-${i}.corp.example</hostname></host><port>${port}</port>` +
    `<nvt oid="1.3.6.1.4.1.25623.1.0.${100000 + r}"><type>nvt</type><name>${name}</name><family>General</family><cvss_base>${severity}</cvss_base><tags>summary=${name}.|qod_type=remote_banner</tags><solution type="VendorFix">Update the software.</solution><refs>${refs}</refs></nvt>` +
    `<threat>${severity > 0 ? 'High' : 'Log'}</threat><severity>${severity}</severity><qod><value>80</value><type>remote_banner</type></qod><description>Installed version: 1.0</description></result>\n`
  );
}

export function greenboneXml(count) {
  const parts = [
    '<get_reports_response status="200" status_text="OK"><report id="r" format_id="a994b278-1f62-11e1-96ac-406186ea4fc5" extension="xml" content_type="text/xml"><report id="r"><results start="1" max="-1">\n',
  ];
  for (let i = 0; i < count; i++) {
    const [a, b] = cvesOf(i);
    parts.push(
      greenboneResult(i, 0, '22/tcp', a.id, a.score, `SSH finding ${a.id}`) +
        greenboneResult(i, 1, '443/tcp', b.id, b.score, `TLS finding ${b.id}`) +
        greenboneResult(i, 2, '80/tcp', null, 0, 'HTTP Server type and version'),
    );
  }
  parts.push('</results>\n');
  for (let i = 0; i < count; i++) {
    parts.push(
      `<host><ip>${ipOf(i)}</ip><asset asset_id="a-${i}"/><start>2025-11-28T10:00:09Z</start><end>2025-11-28T10:42:10Z</end><detail><name>hostname</name><value>host-${i}.corp.example</value><source><type>nvt</type><name>1.3.6.1.4.1.25623.1.0.103997</name><description>Host Details</description></source><extra></extra></detail></host>\n`,
    );
  }
  parts.push('</report></report></get_reports_response>\n');
  return Buffer.from(parts.join(''));
}

export function greenboneAsJson(count, source) {
  const assets = [];
  const service = (port) => ({ port, protocol: 'tcp', name: null, product: null, version: null });
  for (let i = 0; i < count; i++) {
    const [a, b] = cvesOf(i);
    assets.push({
      name: `host-${i}.corp.example`,
      ip: ipOf(i),
      hostnames: [`host-${i}.corp.example`],
      services: [service(22), service(443), service(80)],
      vulnerabilities: [
        vulnerability(a.id, a.score, `SSH finding ${a.id}`),
        vulnerability(b.id, b.score, `TLS finding ${b.id}`),
      ],
    });
  }
  return jsonBody(assets, source);
}

// masscan: a record per open port (5 a host), the hosts' records interleaved as masscan writes
// them (port by port over the range).

const MASSCAN_PORTS = [22, 80, 443, 3306, 8080];

export function masscanXml(count) {
  const parts = [
    '<?xml version="1.0"?>\r\n<!-- masscan v1.0 scan -->\r\n<nmaprun scanner="masscan" start="1764326400" version="1.0-BETA"  xmloutputversion="1.03">\r\n<scaninfo type="syn" protocol="tcp" />\r\n',
  ];
  for (const port of MASSCAN_PORTS) {
    for (let i = 0; i < count; i++) {
      parts.push(
        `<host endtime="1764326401"><address addr="${ipOf(i)}" addrtype="ipv4"/><ports><port protocol="tcp" portid="${port}"><state state="open" reason="syn-ack" reason_ttl="64"/></port></ports></host>\r\n`,
      );
    }
  }
  parts.push(
    `<runstats>\r\n<finished time="1764326413" timestr="2025-11-28 10:40:13" elapsed="13" />\r\n<hosts up="${count * 5}" down="0" total="${count * 5}" />\r\n</runstats>\r\n</nmaprun>\r\n`,
  );
  return Buffer.from(parts.join(''));
}

export function masscanJson(count) {
  const parts = ['[\n'];
  let first = true;
  for (const port of MASSCAN_PORTS) {
    for (let i = 0; i < count; i++) {
      parts.push(
        `${first ? '' : ',\n'}{   "ip": "${ipOf(i)}",   "timestamp": "1764326401", "ports": [ {"port": ${port}, "proto": "tcp", "status": "open", "reason": "syn-ack", "ttl": 64} ] }\n`,
      );
      first = false;
    }
  }
  parts.push(']\n');
  return Buffer.from(parts.join(''));
}

export function masscanAsJson(count, source) {
  const assets = [];
  for (let i = 0; i < count; i++) {
    assets.push({
      name: ipOf(i),
      ip: ipOf(i),
      services: MASSCAN_PORTS.map((port) => ({
        port,
        protocol: 'tcp',
        name: null,
        product: null,
        version: null,
      })),
    });
  }
  return jsonBody(assets, source);
}

// Nuclei: two results a host, one line each, as `nuclei -jsonl` writes them.

function nucleiLine(i, cve) {
  return JSON.stringify({
    template: `http/cves/${cve.id}.yaml`,
    'template-url': `https://cloud.projectdiscovery.io/public/${cve.id}`,
    'template-id': cve.id,
    'template-path': `/home/ci/nuclei-templates/http/cves/${cve.id}.yaml`,
    info: {
      name: `Finding ${cve.id}`,
      author: ['pdteam'],
      tags: ['cve', 'rce'],
      description: 'A templated check matched.',
      reference: [`https://nvd.nist.gov/vuln/detail/${cve.id}`],
      severity: 'high',
      metadata: { 'max-request': 1, verified: true },
      classification: {
        'cve-id': [cve.id.toLowerCase()],
        'cwe-id': ['cwe-22'],
        'cvss-metrics': 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N',
        'cvss-score': cve.score,
      },
    },
    type: 'http',
    host: `https://host-${i}.corp.example`,
    port: '443',
    scheme: 'https',
    url: `https://host-${i}.corp.example`,
    'matched-at': `https://host-${i}.corp.example/cgi-bin/`,
    ip: ipOf(i),
    timestamp: '2025-11-28T10:15:42.123456789Z',
    'curl-command': `curl -X 'GET' 'https://host-${i}.corp.example/cgi-bin/'`,
    'matcher-status': true,
  });
}

export function nucleiJsonl(count) {
  const parts = [];
  for (let i = 0; i < count; i++) {
    for (const cve of cvesOf(i)) parts.push(`${nucleiLine(i, cve)}\n`);
  }
  return Buffer.from(parts.join(''));
}

export function nucleiAsJson(count, source) {
  const assets = [];
  for (let i = 0; i < count; i++) {
    assets.push({
      name: `host-${i}.corp.example`,
      ip: ipOf(i),
      hostnames: [`host-${i}.corp.example`],
      vulnerabilities: cvesOf(i).map((cve) =>
        vulnerability(cve.id, cve.score, `Finding ${cve.id}`),
      ),
    });
  }
  return jsonBody(assets, source);
}

// Trivy: a report per image (one after another in the body), 50 vulnerabilities each.

const TRIVY_VULNERABILITIES = 50;

function trivyVulnerability(image, v) {
  const id = `CVE-2024-${20000 + ((image * 13 + v) % 30000)}`;
  const severity = SEVERITIES[v % SEVERITIES.length];
  return {
    id,
    severity,
    score: v % 3 === 0 ? null : 3 + (v % 70) / 10,
    title: `libexample: a flaw in parsing (${id})`,
    published: `2024-0${1 + (v % 9)}-1${v % 10}T14:15:0${v % 10}Z`,
  };
}

function trivyReport(image) {
  const vulnerabilities = [];
  for (let v = 0; v < TRIVY_VULNERABILITIES; v++) {
    const t = trivyVulnerability(image, v);
    vulnerabilities.push({
      VulnerabilityID: t.id,
      PkgID: `libexample${v}@1.2.${v}-r0`,
      PkgName: `libexample${v}`,
      InstalledVersion: `1.2.${v}-r0`,
      FixedVersion: `1.2.${v}-r1`,
      Status: 'fixed',
      SeveritySource: 'nvd',
      PrimaryURL: `https://avd.aquasec.com/nvd/${t.id.toLowerCase()}`,
      Title: t.title,
      Description: 'A flaw was found in the parser.',
      Severity: t.severity.toUpperCase(),
      ...(t.score !== null && {
        CVSS: {
          nvd: { V3Vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N', V3Score: t.score },
        },
      }),
      PublishedDate: t.published,
    });
  }
  return JSON.stringify({
    SchemaVersion: 2,
    CreatedAt: '2025-11-28T10:20:31.412345678Z',
    ArtifactName: `registry.example.test/team/app-${image}:1.0.${image % 100}`,
    ArtifactType: 'container_image',
    Metadata: {
      OS: { Family: 'alpine', Name: '3.19.1' },
      ImageID: `sha256:${String(image).padStart(64, '0')}`,
      RepoTags: [`registry.example.test/team/app-${image}:1.0.${image % 100}`],
    },
    Results: [
      {
        Target: `registry.example.test/team/app-${image}:1.0.${image % 100} (alpine 3.19.1)`,
        Class: 'os-pkgs',
        Type: 'alpine',
        Vulnerabilities: vulnerabilities,
      },
    ],
  });
}

export function trivyJson(images) {
  const parts = [];
  for (let image = 0; image < images; image++) parts.push(`${trivyReport(image)}\n`);
  return Buffer.from(parts.join(''));
}

export function trivyAsJson(images, source) {
  const assets = [];
  for (let image = 0; image < images; image++) {
    const name = `registry.example.test/team/app-${image}:1.0.${image % 100}`;
    const vulnerabilities = [];
    for (let v = 0; v < TRIVY_VULNERABILITIES; v++) {
      const t = trivyVulnerability(image, v);
      vulnerabilities.push(
        vulnerability(
          t.id,
          t.score ?? SEVERITY_SCORES[t.severity],
          t.title,
          t.published.slice(0, 10),
        ),
      );
    }
    assets.push({
      id: name,
      name,
      type: 'container-image',
      os_version: 'alpine 3.19.1',
      vulnerabilities,
    });
  }
  return jsonBody(assets, source);
}

/** How many units (hosts, images) of `generate` make a body of at most `bytes`. */
export function unitsWithin(generate, bytes) {
  // Measured on units whose numbers are as long as the body's last ones; then checked.
  let units = Math.floor(bytes / (generate(1000).length / 1000));
  while (generate(units).length > bytes) units = Math.floor(units * 0.98);
  return units;
}
