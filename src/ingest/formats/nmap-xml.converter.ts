import {
  scannedIdentity,
  type ConvertedItem,
  type RawAssetItem,
  type RawService,
} from './converted-item.js';
import { numberOrText, presentText, SERVICE_PROTOCOLS } from './scan-values.js';
import { VulnerabilityList } from './vulnerability-list.js';
import type { XmlHandler } from './xml-handler.js';

interface OsMatch {
  name: string | undefined;
  accuracy: number;
  /** The first osclass's type; undefined until one is read. */
  type: string | undefined;
  typeRead: boolean;
}

interface Hop {
  ttl: number;
  ip: string | undefined;
  name: string | undefined;
}

/** Adds `value` to `list` when both are there and the value is not blank. */
function pushPresent(list: string[] | null, value: string | undefined): void {
  const text = presentText(value);
  if (list !== null && text !== undefined) list.push(text);
}

/** What one `host` element has said so far. */
interface NmapHost {
  index: number;
  up: boolean;
  ipv4: string[];
  ipv6: string[];
  macs: string[];
  hostnames: string[];
  vendor: string | undefined;
  bestOs: OsMatch | null;
  os: OsMatch | null;
  services: RawService[];
  /** The port being read, with its `service` element's description once read. */
  port: {
    protocol: string;
    portid: string;
    open: boolean;
    service: Pick<RawService, 'name' | 'product' | 'version'> | null;
  } | null;
  /** Set once a `vulners` script is met on a port, even one that lists no CVE. */
  vulnerabilities: VulnerabilityList | null;
  inVulners: boolean;
  /** A vulners entry being read: its `elem` values by key. */
  entry: Map<string, string> | null;
  elemKey: string | null;
  hops: Hop[] | null;
}

function newHost(index: number): NmapHost {
  return {
    index,
    up: false,
    ipv4: [],
    ipv6: [],
    macs: [],
    hostnames: [],
    vendor: undefined,
    bestOs: null,
    os: null,
    services: [],
    port: null,
    vulnerabilities: null,
    inVulners: false,
    entry: null,
    elemKey: null,
    hops: null,
  };
}

/** A trace hop that is not a scanned host (yet): it becomes an asset at the end. */
interface HopAsset {
  name: string | undefined;
  path: string;
}

/**
 * Nmap's XML (`nmap -oX`), one `host` element at a time: each host that is up becomes an asset
 * item as soon as its element closes. Traces are kept (their relations and the hops that are
 * no scanned host) for the end of the document, when it is known which hops are scanned hosts.
 * `hosts[i]` counts every `host` element, up or not, from 0.
 */
export class NmapXmlConverter implements XmlHandler {
  private hostCount = 0;
  private host: NmapHost | null = null;
  private text_: string | null = null;
  private items: ConvertedItem[] = [];
  /** The ip of every host that is up. */
  private readonly upIps = new Set<string>();
  private readonly hopAssets = new Map<string, HopAsset>();
  /** Each route once, by its ends, in the order first met. */
  private readonly routes = new Map<string, ConvertedItem>();

  open(name: string, attributes: Record<string, string>, parent: string | undefined): void {
    if (name === 'host' && parent === 'nmaprun') {
      this.host = newHost(this.hostCount++);
      return;
    }
    const host = this.host;
    if (!host) return;
    if (host.inVulners) {
      this.openInVulners(host, name, attributes, parent);
      return;
    }
    switch (name) {
      case 'status':
        if (parent === 'host') host.up = attributes.state === 'up';
        break;
      case 'address':
        if (parent !== 'host') break;
        pushPresent(
          attributes.addrtype === 'ipv4'
            ? host.ipv4
            : attributes.addrtype === 'ipv6'
              ? host.ipv6
              : attributes.addrtype === 'mac'
                ? host.macs
                : null,
          attributes.addr,
        );
        if (attributes.addrtype === 'mac') host.vendor ??= presentText(attributes.vendor);
        break;
      case 'hostname':
        if (parent === 'hostnames') pushPresent(host.hostnames, attributes.name);
        break;
      case 'port':
        if (parent === 'ports') {
          host.port = {
            protocol: attributes.protocol ?? '',
            portid: attributes.portid ?? '',
            open: false,
            service: null,
          };
        }
        break;
      case 'state':
        if (parent === 'port' && host.port) host.port.open = attributes.state === 'open';
        break;
      case 'service':
        if (parent === 'port' && host.port) {
          host.port.service = {
            name: presentText(attributes.name) ?? null,
            product: presentText(attributes.product) ?? null,
            version: presentText(attributes.version) ?? null,
          };
        }
        break;
      case 'script':
        if (parent === 'port' && attributes.id === 'vulners') {
          host.inVulners = true;
          host.vulnerabilities ??= new VulnerabilityList();
        }
        break;
      case 'osmatch':
        if (parent === 'os') {
          host.os = {
            name: presentText(attributes.name),
            accuracy: Number(attributes.accuracy) || 0,
            type: undefined,
            typeRead: false,
          };
        }
        break;
      case 'osclass':
        if (parent === 'osmatch' && host.os && !host.os.typeRead) {
          host.os.typeRead = true;
          host.os.type = presentText(attributes.type);
        }
        break;
      case 'trace':
        if (parent === 'host') host.hops = [];
        break;
      case 'hop':
        if (parent === 'trace' && host.hops) {
          host.hops.push({
            ttl: Number(attributes.ttl),
            ip: presentText(attributes.ipaddr),
            name: presentText(attributes.host),
          });
        }
        break;
    }
  }

  close(name: string, parent: string | undefined): void {
    const host = this.host;
    if (!host) return;
    if (host.inVulners) {
      this.closeInVulners(host, name);
      return;
    }
    if (name === 'host' && parent === 'nmaprun') {
      this.finish(host);
      this.host = null;
    } else if (name === 'port' && host.port) {
      const { port } = host;
      if (port.open && SERVICE_PROTOCOLS.has(port.protocol)) {
        host.services.push({
          port: numberOrText(port.portid) ?? port.portid,
          protocol: port.protocol,
          ...(port.service ?? { name: null, product: null, version: null }),
        });
      }
      host.port = null;
    } else if (name === 'osmatch' && host.os) {
      // The most accurate; of equals, the first (Nmap lists them best first).
      if (!host.bestOs || host.os.accuracy > host.bestOs.accuracy) host.bestOs = host.os;
      host.os = null;
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
    const items: ConvertedItem[] = [];
    for (const [ip, hop] of this.hopAssets) {
      if (!this.upIps.has(ip)) {
        items.push({ part: 'assets', path: hop.path, value: { name: hop.name ?? ip, ip } });
      }
    }
    items.push(...this.routes.values());
    return items;
  }

  /** Inside `<script id="vulners">`: tables of entries, each a table of `elem`s. */
  private openInVulners(
    host: NmapHost,
    name: string,
    attributes: Record<string, string>,
    parent: string | undefined,
  ): void {
    if (name === 'table' && parent === 'table') host.entry = new Map();
    else if (name === 'elem' && host.entry && attributes.key !== undefined) {
      host.elemKey = attributes.key;
      this.text_ = '';
    }
  }

  private closeInVulners(host: NmapHost, name: string): void {
    if (name === 'elem' && host.entry && host.elemKey !== null) {
      host.entry.set(host.elemKey, this.text_ ?? '');
      host.elemKey = null;
      this.text_ = null;
    } else if (name === 'table' && host.entry) {
      const { entry } = host;
      const id = presentText(entry.get('id'));
      if (id && entry.get('type')?.trim() === 'cve') {
        host.vulnerabilities!.add({
          id,
          score: numberOrText(entry.get('cvss')),
          summary: null,
          publishedDate: null,
        });
      }
      host.entry = null;
    } else if (name === 'script') {
      host.inVulners = false;
      host.entry = null;
    }
  }

  private finish(host: NmapHost): void {
    if (!host.up) return;
    const ip = host.ipv4[0] ?? host.ipv6[0];
    const path = `hosts[${host.index}]`;
    const asset: RawAssetItem = {};
    const name = host.hostnames[0] ?? ip;
    if (name !== undefined) asset.name = name;
    if (ip !== undefined) asset.ip = ip;
    Object.assign(
      asset,
      scannedIdentity({
        addresses: [...host.ipv4, ...host.ipv6],
        macAddresses: host.macs,
        hostnames: host.hostnames,
      }),
    );
    const os = host.bestOs;
    if (os?.type !== undefined) asset.type = os.type;
    if (host.vendor !== undefined) asset.vendor = host.vendor;
    if (os?.name !== undefined) asset.os_version = os.name;
    const risk = host.vulnerabilities?.riskScore();
    if (risk !== undefined) asset.risk_score = risk;
    asset.services = host.services;
    if (host.vulnerabilities) asset.vulnerabilities = host.vulnerabilities.items();
    this.items.push({ part: 'assets', path, value: asset });
    if (ip !== undefined) {
      this.upIps.add(ip);
      this.hopAssets.delete(ip);
    }
    if (host.hops) this.keepTrace(host.hops, path);
  }

  /**
   * Each hop becomes an asset (unless it is a scanned host) and a route to the next hop. Only
   * hops one TTL apart are linked: a hop that did not answer leaves a gap, not a false link.
   */
  private keepTrace(hops: Hop[], hostPath: string): void {
    hops.forEach((hop, position) => {
      const hopPath = `${hostPath}.trace.hop[${position}]`;
      if (hop.ip === undefined) return;
      if (!this.upIps.has(hop.ip)) {
        const known = this.hopAssets.get(hop.ip);
        if (!known) this.hopAssets.set(hop.ip, { name: hop.name, path: hopPath });
        else known.name ??= hop.name;
      }
      const previous = hops[position - 1];
      if (!previous?.ip || previous.ttl + 1 !== hop.ttl || previous.ip === hop.ip) return;
      const key = `${previous.ip} ${hop.ip}`;
      if (!this.routes.has(key)) {
        this.routes.set(key, {
          part: 'relations',
          path: hopPath,
          value: {
            sourceAssetIp: previous.ip,
            targetAssetIp: hop.ip,
            type: 'route',
            direction: 'mono',
          },
        });
      }
    });
  }
}
