import {
  scannedIdentity,
  type ConvertedItem,
  type RawAssetItem,
  type RawService,
} from './converted-item.js';
import { numberOrText, presentText, SERVICE_PROTOCOLS } from './scan-values.js';
import { VulnerabilityList } from './vulnerability-list.js';
import type { XmlHandler } from './xml-handler.js';

/** The HostProperties tags read. */
const HOST_TAGS = new Set([
  'host-ip',
  'host-fqdn',
  'netbios-name',
  'operating-system',
  'mac-address',
]);
/** The ReportItem children read. */
const ITEM_FIELDS = new Set([
  'cve',
  'cvss3_base_score',
  'cvss_base_score',
  'synopsis',
  'vuln_publication_date',
]);
/** Nessus writes dates as 2023/07/19. */
const NESSUS_DATE = /^(\d{4})\/(\d{2})\/(\d{2})$/;

interface ReportItem {
  attributes: Record<string, string>;
  cves: string[];
  fields: Map<string, string>;
}

interface NessusHost {
  index: number;
  /** The ReportHost's `name` attribute. */
  reportName: string | undefined;
  properties: Map<string, string>;
  /** One service per (port, protocol): the first item's `svc_name` names it. */
  services: Map<string, RawService>;
  vulnerabilities: VulnerabilityList;
  item: ReportItem | null;
}

function publishedDate(text: string | undefined): string | null {
  const date = presentText(text);
  if (date === undefined) return null;
  const match = NESSUS_DATE.exec(date);
  return match ? `${match[1]}-${match[2]}-${match[3]}` : date;
}

/**
 * Nessus v2 (`.nessus`), one `ReportHost` at a time: each becomes an asset item when its
 * element closes. `hosts[i]` counts every `ReportHost` element from 0. The Policy section and
 * the long texts (descriptions, plugin output) are skipped as they stream by.
 */
export class NessusXmlConverter implements XmlHandler {
  private hostCount = 0;
  private host: NessusHost | null = null;
  /** The text being read (null when none is wanted), of which element, kept under what key. */
  private text_: string | null = null;
  private reading: { element: string; key: string } | null = null;
  private items: ConvertedItem[] = [];

  open(name: string, attributes: Record<string, string>, parent: string | undefined): void {
    if (name === 'ReportHost' && parent === 'Report') {
      this.host = {
        index: this.hostCount++,
        reportName: presentText(attributes.name),
        properties: new Map(),
        services: new Map(),
        vulnerabilities: new VulnerabilityList(),
        item: null,
      };
      return;
    }
    const host = this.host;
    if (!host) return;
    if (name === 'tag' && parent === 'HostProperties' && HOST_TAGS.has(attributes.name)) {
      this.read(name, `tag:${attributes.name}`);
    } else if (name === 'ReportItem' && parent === 'ReportHost') {
      host.item = { attributes, cves: [], fields: new Map() };
    } else if (parent === 'ReportItem' && host.item && ITEM_FIELDS.has(name)) {
      this.read(name, name);
    }
  }

  close(name: string, parent: string | undefined): void {
    const host = this.host;
    if (!host) return;
    if (this.reading?.element === name) {
      const text = this.text_ ?? '';
      const { key } = this.reading;
      this.text_ = this.reading = null;
      if (key.startsWith('tag:')) host.properties.set(key.slice(4), text);
      else if (key === 'cve') host.item?.cves.push(text);
      else host.item?.fields.set(key, text);
    } else if (name === 'ReportItem' && host.item) {
      this.addItem(host, host.item);
      host.item = null;
    } else if (name === 'ReportHost' && parent === 'Report') {
      this.items.push({ part: 'assets', path: `hosts[${host.index}]`, value: this.asset(host) });
      this.host = null;
    }
  }

  text(text: string): void {
    if (this.text_ !== null) this.text_ += text;
  }

  take(): ConvertedItem[] {
    const items = this.items;
    this.items = [];
    return items;
  }

  end(): ConvertedItem[] {
    return [];
  }

  private read(element: string, key: string): void {
    this.text_ = '';
    this.reading = { element, key };
  }

  private addItem(host: NessusHost, item: ReportItem): void {
    const { attributes } = item;
    const port = numberOrText(attributes.port);
    const protocol = presentText(attributes.protocol)?.toLowerCase();
    if (port !== null && port !== 0 && protocol && SERVICE_PROTOCOLS.has(protocol)) {
      const key = `${port}/${protocol}`;
      if (!host.services.has(key)) {
        host.services.set(key, {
          port,
          protocol,
          name: presentText(attributes.svc_name) ?? null,
          product: null,
          version: null,
        });
      }
    }
    if (!(Number(attributes.severity) >= 1)) return;
    const { fields } = item;
    const score =
      numberOrText(fields.get('cvss3_base_score')) ?? numberOrText(fields.get('cvss_base_score'));
    const summary = presentText(fields.get('synopsis')) ?? null;
    const date = publishedDate(fields.get('vuln_publication_date'));
    const cves = item.cves.map((cve) => presentText(cve)).filter((cve) => cve !== undefined);
    const ids = cves.length > 0 ? cves : [`NESSUS-${presentText(attributes.pluginID) ?? ''}`];
    for (const id of ids) {
      host.vulnerabilities.add({ id, score, summary, publishedDate: date });
    }
  }

  private asset(host: NessusHost): RawAssetItem {
    const property = (name: string) => presentText(host.properties.get(name));
    const ip = property('host-ip');
    const asset: RawAssetItem = {};
    const name = property('host-fqdn') ?? property('netbios-name') ?? ip ?? host.reportName;
    if (name !== undefined) asset.name = name;
    if (ip !== undefined) asset.ip = ip;
    Object.assign(
      asset,
      scannedIdentity({
        addresses: [ip],
        // One MAC address a line where the host has several.
        macAddresses: host.properties.get('mac-address')?.split(/\s+/),
        hostnames: [property('host-fqdn')],
      }),
    );
    // Nessus lists one candidate per line when it is unsure: the first is its best guess.
    const os = presentText(property('operating-system')?.split('\n')[0]);
    if (os !== undefined) asset.os_version = os;
    const risk = host.vulnerabilities.riskScore();
    if (risk !== undefined) asset.risk_score = risk;
    asset.services = [...host.services.values()];
    asset.vulnerabilities = host.vulnerabilities.items();
    return asset;
  }
}
