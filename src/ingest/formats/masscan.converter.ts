import type { ConvertedItem } from './converted-item.js';
import { FormatError } from './format-error.js';
import { HostGroups } from './host-groups.js';
import type { JsonItemsHandler } from './json.converter.js';
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
  /** -oJ: whether the records are an array's elements (the path's first step). */
  private inArray = false;
  private started = false;

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
    if (path.length === 0 && !this.started) {
      this.started = true;
      if (kind === 'array') {
        this.inArray = true;
        return 'descend';
      }
    }
    if (path.length === 0 && this.inArray) {
      throw new FormatError('the masscan JSON body holds something after its array of records');
    }
    const at = this.inArray ? path.slice(1) : path;
    if (at.length === 0) {
      if (kind !== 'object') {
        throw new FormatError(
          `hosts[${this.recordCount}] must be an object, as masscan -oJ writes each record`,
        );
      }
      this.record = { index: this.recordCount++, ip: undefined, ports: [], port: null };
      return 'descend';
    }
    if (at.length === 1 && at[0] === 'ip') return 'capture';
    if (at.length === 1 && at[0] === 'ports') return 'descend';
    if (at.length === 2 && at[0] === 'ports') return 'capture';
    return 'skip';
  }

  value(path: JsonPath, value: unknown): void {
    const record = this.record!;
    const at = this.inArray ? path.slice(1) : path;
    if (at[0] === 'ip') {
      record.ip = jsonText(value);
    } else if (typeof value === 'object' && value !== null) {
      const port = value as Record<string, unknown>;
      const protocol = jsonText(port.proto)?.toLowerCase() ?? '';
      // A banner record (a `service` and no `status`) repeats a port already reported open.
      if (port.status !== undefined) {
        record.ports.push({ port: jsonText(port.port), protocol, open: port.status === 'open' });
      }
    }
  }

  closed(path: JsonPath): void {
    const depth = this.inArray ? 1 : 0;
    if (path.length === depth && this.record) {
      this.add(this.record);
      this.record = null;
    }
  }

  take(): ConvertedItem[] {
    return [];
  }

  end(): ConvertedItem[] {
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
