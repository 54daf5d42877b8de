import { ASSET_FIELDS } from '../../database/tables/assets.table.js';
import { SPACED_LISTS } from '../../common/field-rules/identity-values.js';
import {
  FORMAT_MEDIA_TYPES,
  SCANNER_FORMATS,
  SCANNER_MEDIA_TYPES,
  type ScannerFormat,
} from '../../common/ingest-formats.js';
import type { MediaTypeObject, OpenAPIObject, OperationObject } from '@nestjs/swagger';

const NMAP_EXAMPLE = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE nmaprun>
<nmaprun scanner="nmap" args="nmap -sV -O --traceroute -oX - 198.51.100.0/24" version="7.93">
  <host><status state="up"/>
    <address addr="198.51.100.10" addrtype="ipv4"/>
    <hostnames><hostname name="web01.example.test" type="PTR"/></hostnames>
    <ports><port protocol="tcp" portid="22"><state state="open"/>
      <service name="ssh" product="OpenSSH" version="8.4p1 Debian 5+deb11u3"/></port></ports>
    <trace><hop ttl="1" ipaddr="192.0.2.2" host="gw.example.test"/><hop ttl="2" ipaddr="198.51.100.10"/></trace>
  </host>
</nmaprun>`;

const NESSUS_EXAMPLE = `<?xml version="1.0" ?>
<NessusClientData_v2><Report name="dmz-weekly">
  <ReportHost name="192.0.2.20"><HostProperties>
    <tag name="host-ip">192.0.2.20</tag><tag name="host-fqdn">web01.example.test</tag>
    <tag name="operating-system">Linux Kernel 5.10 on Debian 11 (bullseye)</tag></HostProperties>
    <ReportItem port="22" svc_name="ssh" protocol="tcp" severity="2" pluginID="187315" pluginName="SSH Terrapin">
      <cve>CVE-2023-48795</cve><cvss3_base_score>5.9</cvss3_base_score>
      <synopsis>The remote SSH server is vulnerable to a mitm prefix truncation attack.</synopsis>
      <vuln_publication_date>2023/12/18</vuln_publication_date></ReportItem>
  </ReportHost>
</Report></NessusClientData_v2>`;

const GREENBONE_EXAMPLE = `<get_reports_response status="200" status_text="OK"><report id="3c1c7a53"><report id="3c1c7a53">
  <results><result id="c8f2a1b3"><name>SSH Prefix Truncation Vulnerability (Terrapin Attack)</name>
    <host>192.0.2.20<hostname>www.example.test</hostname></host><port>22/tcp</port>
    <nvt oid="1.3.6.1.4.1.25623.1.0.151350"><refs><ref type="cve" id="CVE-2023-48795"/></refs></nvt>
    <severity>5.9</severity></result></results>
  <host><ip>192.0.2.20</ip><detail><name>hostname</name><value>web01.example.test</value></detail></host>
</report></report></get_reports_response>`;

const MASSCAN_EXAMPLE = `<?xml version="1.0"?>
<nmaprun scanner="masscan" start="1764326400" version="1.0-BETA"  xmloutputversion="1.03">
<host endtime="1764326401"><address addr="192.0.2.10" addrtype="ipv4"/><ports><port protocol="tcp" portid="443"><state state="open" reason="syn-ack" reason_ttl="64"/></port></ports></host>
</nmaprun>`;

const NUCLEI_EXAMPLE = `{"template-id":"CVE-2021-41773","info":{"name":"Apache 2.4.49 - Path Traversal","severity":"high","classification":{"cve-id":["cve-2021-41773"],"cvss-score":7.5}},"type":"http","host":"https://www.example.test","matched-at":"https://www.example.test/cgi-bin/","ip":"192.0.2.20"}
{"template-id":"http-missing-security-headers","info":{"name":"HTTP Missing Security Headers","severity":"info"},"type":"http","host":"https://www.example.test","ip":"192.0.2.20"}
`;

/** Each scanner format's body: what it is, and an example, by the media types it comes as. */
const FORMAT_BODIES: Record<ScannerFormat, { description: string; example?: string }> = {
  nmap: {
    description:
      'Nmap XML (`nmap -oX`, root `nmaprun`); every `host` element counts in errors as `hosts[i]`, from 0.',
    example: NMAP_EXAMPLE,
  },
  nessus: {
    description:
      'Nessus v2 (`.nessus`, root `NessusClientData_v2`); every `ReportHost` counts as `hosts[i]`.',
    example: NESSUS_EXAMPLE,
  },
  greenbone: {
    description:
      'Greenbone / OpenVAS report (GMP `get_reports`: root `report`, or `get_reports_response` around one); every `result` counts as `results[i]`.',
    example: GREENBONE_EXAMPLE,
  },
  masscan: {
    description:
      'masscan `-oX` (root `nmaprun` with `scanner="masscan"`), or with `?format=masscan` its `-oJ` JSON array (`application/json`); every record counts as `hosts[i]`.',
    example: MASSCAN_EXAMPLE,
  },
  csv: {
    description: `An asset table, RFC 4180, UTF-8 (a BOM is allowed): a header row naming asset fields (${['id', ...ASSET_FIELDS, ...SPACED_LISTS].join(', ')}; the values of addresses, macAddresses, hostnames and tags separated by spaces), then one asset per row; an empty cell leaves the field out. Rows are named in errors as \`line N\` (the header is line 1).`,
    example: 'name,ip,type,site\nfw-1,10.0.0.1,firewall,hq\nweb-1,10.0.0.2,server,hq\n',
  },
  nuclei: {
    description:
      "With `?format=nuclei`: Nuclei's `-jsonl` output, a result per line (or its `-je` JSON array); the result on line i (from 0) counts as `results[i]`.",
    example: NUCLEI_EXAMPLE,
  },
  trivy: {
    description:
      "With `?format=trivy` (`application/json`): Trivy's report (`trivy image -f json`, schema version 2), or several one after another; the i-th counts as `hosts[i]`.",
  },
};

/** One media type's body: the formats sent as it, described together, with their examples. */
function bodyOf(mediaType: string): MediaTypeObject {
  const formats = SCANNER_FORMATS.filter((format) =>
    FORMAT_MEDIA_TYPES[format].includes(mediaType),
  );
  const examples = Object.fromEntries(
    formats.flatMap((format) => {
      const { example } = FORMAT_BODIES[format];
      return example === undefined ? [] : [[format, { summary: format, value: example }]];
    }),
  );
  const xml = mediaType.endsWith('/xml')
    ? ' UTF-8; a plain `<!DOCTYPE name>` is accepted; entity declarations, an external DTD or another root are 400.'
    : '';
  return {
    schema: {
      type: 'string',
      description: `${formats.map((format) => FORMAT_BODIES[format].description).join(' ')}${xml}`,
    },
    examples,
  };
}

/** The scanner formats' bodies, beside the JSON one the decorators describe. */
export const SCANNER_BODIES: Record<string, MediaTypeObject> = Object.fromEntries(
  SCANNER_MEDIA_TYPES.map((mediaType) => [mediaType, bodyOf(mediaType)]),
);

/** What `?format=` names, for the query parameter's description. */
export const FORMAT_PARAMETER_DESCRIPTION = `The body's format: ${SCANNER_FORMATS.join(', ')}. Needed for a JSON-based one (masscan \`-oJ\`, Nuclei, Trivy: a JSON body without it is the native payload); an XML body's root tells its format, which must then be the one named. ${FORMAT_BODIES.trivy.description}`;

/** Adds the scanner formats' bodies to the ingestion route's request body. */
export function addScannerBodies(document: OpenAPIObject, path: string): OpenAPIObject {
  const operation: OperationObject | undefined = document.paths[path]?.post;
  const body = operation?.requestBody;
  if (body && 'content' in body) Object.assign(body.content, SCANNER_BODIES);
  return document;
}
