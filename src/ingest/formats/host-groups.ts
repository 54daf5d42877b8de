import { scannedIdentity, type ConvertedItem, type RawAssetItem } from './converted-item.js';
import { numberOrText, SERVICE_PROTOCOLS } from './scan-values.js';
import { VulnerabilityList } from './vulnerability-list.js';

/** What the records of one address have said so far. */
export interface HostGroup {
  /** The name of the first record of this address, for errors. */
  path: string;
  ip: string | undefined;
  /** The first host name given. */
  hostname: string | undefined;
  /** Each service once, as `port/protocol`: a hundred thousand hosts are held till the end. */
  services: string[];
  /** Null until a record of the format that reports vulnerabilities is read. */
  vulnerabilities: VulnerabilityList | null;
}

/**
 * The assets of a format whose records each say a little about an address (a masscan line per
 * open port, a Greenbone or Nuclei result per finding), in any order: grouped by address, one
 * asset each at the end of the body, named like an Nmap host (its first host name, else its ip).
 */
export class HostGroups {
  private readonly groups = new Map<string, HostGroup>();

  /** `withServices`: whether the format reports ports (an asset without them keeps its own). */
  constructor(private readonly withServices: boolean) {}

  /** The group of `key` (an address; a record without one is its own group, by its path). */
  group(key: string | undefined, path: string, ip: string | undefined): HostGroup {
    const mapKey = key ?? `\0${path}`;
    let group = this.groups.get(mapKey);
    if (!group) {
      group = { path, ip, hostname: undefined, services: [], vulnerabilities: null };
      this.groups.set(mapKey, group);
    }
    return group;
  }

  /** A service once per (port, protocol); of a protocol a service may have. */
  static addService(group: HostGroup, port: number | string, protocol: string): void {
    if (!SERVICE_PROTOCOLS.has(protocol)) return;
    const key = `${port}/${protocol}`;
    if (!group.services.includes(key)) group.services.push(key);
  }

  values(): IterableIterator<HostGroup> {
    return this.groups.values();
  }

  /** Each group's asset, the group let go as its asset is taken. */
  *items(): Generator<ConvertedItem> {
    for (const [key, group] of this.groups) {
      this.groups.delete(key);
      const asset: RawAssetItem = {};
      const name = group.hostname ?? group.ip;
      if (name !== undefined) asset.name = name;
      if (group.ip !== undefined) asset.ip = group.ip;
      Object.assign(asset, scannedIdentity({ addresses: [group.ip], hostnames: [group.hostname] }));
      if (this.withServices) {
        asset.services = group.services.map((key) => {
          const slash = key.lastIndexOf('/');
          const port = key.slice(0, slash);
          return {
            port: numberOrText(port) ?? port,
            protocol: key.slice(slash + 1),
            name: null,
            product: null,
            version: null,
          };
        });
      }
      if (group.vulnerabilities) asset.vulnerabilities = group.vulnerabilities.items();
      yield { part: 'assets', path: group.path, value: asset };
    }
  }
}
