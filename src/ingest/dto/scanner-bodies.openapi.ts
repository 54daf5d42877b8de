import { ASSET_FIELDS } from '../../database/tables/assets.table.js';
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

const XML: MediaTypeObject = {
  schema: {
    type: 'string',
    description:
      'Nmap XML (`nmap -oX`, root `nmaprun`) or Nessus v2 (`.nessus`, root `NessusClientData_v2`), UTF-8. A plain `<!DOCTYPE nmaprun>` is accepted; entity declarations, an external DTD or another root are 400. Every `host` or `ReportHost` element counts in errors as `hosts[i]`, from 0.',
  },
  examples: {
    nmap: { summary: 'Nmap XML', value: NMAP_EXAMPLE },
    nessus: { summary: 'Nessus v2', value: NESSUS_EXAMPLE },
  },
};

const CSV: MediaTypeObject = {
  schema: {
    type: 'string',
    description: `An asset table, RFC 4180, UTF-8 (a BOM is allowed): a header row naming asset fields (${['id', ...ASSET_FIELDS].join(', ')}), then one asset per row; an empty cell leaves the field out. Rows are named in errors as \`line N\` (the header is line 1).`,
  },
  example: 'name,ip,type,site\nfw-1,10.0.0.1,firewall,hq\nweb-1,10.0.0.2,server,hq\n',
};

/** The scanner formats' bodies, beside the JSON one the decorators describe. */
export const SCANNER_BODIES: Record<string, MediaTypeObject> = {
  'application/xml': XML,
  'text/xml': XML,
  'text/csv': CSV,
};

/** Adds the scanner formats' bodies to the ingestion route's request body. */
export function addScannerBodies(document: OpenAPIObject, path: string): OpenAPIObject {
  const operation: OperationObject | undefined = document.paths[path]?.post;
  const body = operation?.requestBody;
  if (body && 'content' in body) Object.assign(body.content, SCANNER_BODIES);
  return document;
}
