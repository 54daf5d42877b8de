import type { ConvertedItem } from './converted-item.js';
import { FormatError } from './format-error.js';
import { HostGroups } from './host-groups.js';
import type { JsonItemsHandler } from './json.converter.js';
import { JsonRecords } from './json-records.js';
import type { JsonKind, JsonPath, JsonStep } from './json-stream.js';
import { jsonText, numberOrText, presentText } from './scan-values.js';
import type { XmlHandler } from './xml-handler.js';

/** A port masscan reports: one per record. */
interface MasscanPort {
  port: string | undefined;
  protocol: string;
  open: boolean;
}

/** One record: a `host` element of `-oX`, an object of `-oJ`. */
interface MasscanRecord {
  index: number;
  ip: string | undefined;
  ports: MasscanPort[];
  port: MasscanPort | null;
}

/**
 * masscan's output, `-oX` (root `nmaprun` with `scanner="masscan"`) or `-oJ` (a JSON array of
 * records; a record per line, `-oD`, is taken too). masscan writes a record per open port it
 * finds, in no order: the records are grouped by address, one asset each with its open ports
 * as services, at the end of the body. `hosts[i]` counts every record from 0 (`host` element
 * or JSON object); an asset is named by its address's first record.
 */
export class MasscanConverter implements XmlHandler, JsonItemsHandler {
  private readonly hosts = new HostGroups(true);
  private recordCount = 0;
  private record: MasscanRecord | null = null;
  private readonly records = new JsonRecords('the masscan JSON body', 'records');

  // -oX
  open(name: string, attributes: Record<string, string>, parent: string | undefined): void {
    if (name === 'host' && parent === 'nmaprun') {
      this.record = { index: this.recordCount++, ip: undefined, ports: [], port: null };
      return;
    }
    const record = this.record;
    if (!record) return;
    if (name === 'address' && parent === 'host') {
      if (attributes.addrtype === 'ipv4' || attributes.addrtype === 'ipv6') {
        record.ip ??= presentText(attributes.addr);
      }
    } else if (name === 'port' && parent === 'ports') {
      record.port = {
        port: attributes.portid,
        protocol: presentText(attributes.protocol)?.toLowerCase() ?? '',
        open: false,
      };
    } else if (name === 'state' && parent === 'port' && record.port) {
      record.port.open = attributes.state === 'open';
    }
  }

  close(name: string, parent: string | undefined): void {
    const record = this.record;
    if (!record) return;
    if (name === 'port' && record.port) {
      record.ports.push(record.port);
      record.port = null;
    } else if (name === 'host' && parent === 'nmaprun') {
      this.add(record);
      this.record = null;
    }
  }

  text(): void {
    // masscan writes everything in attributes.
  }

  // -oJ
  step(path: JsonPath, kind: JsonKind): JsonStep {
    if (this.records.at(path, kind) === 'array') return 'descend';
    if (kind !== 'object') {
      throw new FormatError(
        `hosts[${this.recordCount}] must be an object, as masscan -oJ writes each record`,
      );
    }
    // A record is one line: parsed whole.
    return 'capture';
  }

  value(_path: JsonPath, value: unknown): void {
    const { ip, ports } = value as { ip?: unknown; ports?: unknown };
    const record: MasscanRecord = {
      index: this.recordCount++,
      ip: jsonText(ip),
      ports: [],
      port: null,
    };
    for (const port of Array.isArray(ports) ? (ports as unknown[]) : []) {
      if (typeof port !== 'object' || port === null) continue;
      const { port: number, proto, status } = port as Record<string, unknown>;
      // A banner record (a `service` and no `status`) repeats a port already reported open.
      if (status === undefined) continue;
      record.ports.push({
        port: jsonText(number),
        protocol: jsonText(proto)?.toLowerCase() ?? '',
        open: status === 'open',
      });
    }
    this.add(record);
  }

  closed(): void {
    // Only the array of records is descended into.
  }

  take(): ConvertedItem[] {
    return [];
  }

  end(): Iterable<ConvertedItem> {
    return this.hosts.items();
  }

  private add(record: MasscanRecord): void {
    const group = this.hosts.group(record.ip, `hosts[${record.index}]`, record.ip);
    for (const { port, protocol, open } of record.ports) {
      if (!open) continue;
      const number = numberOrText(port);
      if (number !== null) HostGroups.addService(group, number, protocol);
    }
  }
}
