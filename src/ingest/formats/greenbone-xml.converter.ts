import type { ConvertedItem } from './converted-item.js';
import { FormatError } from './format-error.js';
import { HostGroups } from './host-groups.js';
import { numberOrText, presentText, vulnerabilityId } from './scan-values.js';
import { VulnerabilityList } from './vulnerability-list.js';
import type { XmlHandler } from './xml-handler.js';

/** A result's port as Greenbone writes it: `443/tcp` (or `general/tcp`, `package`: no port). */
const PORT = /^(\d+)\/([a-z]+)$/i;

/** The `result` children read, by name; the texts of the nvt's that are read besides. */
const RESULT_TEXTS = new Set(['name', 'port', 'severity']);

interface GreenboneResult {
  index: number;
  /** The element depth of the `result` element: its own children are one below. */
  depth: number;
  texts: Map<string, string>;
  host: string;
  hostname: string | undefined;
  oid: string | undefined;
  cves: string[];
  /** Before GMP 8, the CVEs were one `cve` text, comma-separated (`NOCVE` for none). */
  cveText: string | undefined;
}

/**
 * Greenbone / OpenVAS reports (GMP `get_reports`: root `report`, or `get_reports_response`
 * around one), one `result` at a time, grouped by the result's host address: one asset per
 * address at the end of the report, when the report's `host` elements (which follow the
 * results) have given their `hostname` details. `results[i]` counts every `result` of the
 * report's `results` from 0; an asset is named by its address's first result. Notes,
 * overrides and the long texts are skipped as they stream by.
 */
export class GreenboneXmlConverter implements XmlHandler {
  private readonly hosts = new HostGroups(true);
  /** The host names of the report's `host` elements, by address. */
  private readonly hostnames = new Map<string, string>();
  private resultCount = 0;
  private depth = 0;
  private result: GreenboneResult | null = null;
  /** The element whose text is read, and into what. */
  private reading: { element: string; depth: number; text: string } | null = null;
  /** A report-level `host` being read: its ip and its `hostname` detail. */
  private reportHost: { ip: string | undefined; hostname: string | undefined } | null = null;
  private detail: { name: string | undefined; value: string | undefined } | null = null;
  /** Whether text now is the result's `host` element's own (its address). */
  private inResultHost = false;

  open(name: string, attributes: Record<string, string>, parent: string | undefined): void {
    this.depth++;
    if (this.depth === 1 && name === 'get_reports_response') {
      const status = attributes.status ?? '';
      if (!status.startsWith('2')) {
        throw new FormatError(
          `the Greenbone response reports a failure: status ${status || 'missing'}${attributes.status_text ? ` (${attributes.status_text})` : ''}`,
        );
      }
      return;
    }
    const result = this.result;
    if (result) {
      this.openInResult(result, name, attributes, parent);
    } else if (name === 'result' && parent === 'results') {
      this.result = {
        index: this.resultCount++,
        depth: this.depth,
        texts: new Map(),
        host: '',
        hostname: undefined,
        oid: undefined,
        cves: [],
        cveText: undefined,
      };
    } else if (name === 'host' && parent === 'report') {
      this.reportHost = { ip: undefined, hostname: undefined };
    } else if (this.reportHost) {
      if (name === 'ip' && parent === 'host') this.read(name);
      else if (name === 'detail' && parent === 'host') {
        this.detail = { name: undefined, value: undefined };
      } else if ((name === 'name' || name === 'value') && parent === 'detail' && this.detail) {
        this.read(name);
      }
    }
  }

  close(name: string, parent: string | undefined): void {
    const depth = this.depth--;
    const reading = this.reading;
    let text: string | undefined;
    if (reading && reading.depth === depth) {
      text = reading.text;
      this.reading = null;
    }
    const result = this.result;
    if (result) {
      if (depth === result.depth) {
        this.addResult(result);
        this.result = null;
      } else if (depth === result.depth + 1 && name === 'host') {
        this.inResultHost = false;
      } else if (text !== undefined) {
        if (depth === result.depth + 1) result.texts.set(name, text);
        else if (name === 'hostname') result.hostname ??= presentText(text);
        else if (name === 'cve') result.cveText = text;
      }
      return;
    }
    const host = this.reportHost;
    if (!host) return;
    if (name === 'host' && parent === 'report') {
      if (host.ip !== undefined && host.hostname !== undefined) {
        this.hostnames.set(host.ip, host.hostname);
      }
      this.reportHost = null;
    } else if (name === 'ip' && text !== undefined) {
      host.ip = presentText(text);
    } else if (name === 'name' && text !== undefined && this.detail) {
      this.detail.name = presentText(text);
    } else if (name === 'value' && text !== undefined && this.detail) {
      this.detail.value = presentText(text);
    } else if (name === 'detail' && this.detail) {
      if (this.detail.name === 'hostname') host.hostname ??= this.detail.value;
      this.detail = null;
    }
  }

  text(text: string): void {
    if (this.reading) this.reading.text += text;
    // The result's host address is the `host` element's own text, around its children.
    else if (this.result && this.inResultHost) this.result.host += text;
  }

  take(): ConvertedItem[] {
    return [];
  }

  end(): Iterable<ConvertedItem> {
    for (const group of this.hosts.values()) {
      if (group.ip !== undefined) group.hostname = this.hostnames.get(group.ip) ?? group.hostname;
    }
    return this.hosts.items();
  }

  private openInResult(
    result: GreenboneResult,
    name: string,
    attributes: Record<string, string>,
    parent: string | undefined,
  ): void {
    const child = this.depth === result.depth + 1;
    this.inResultHost = false;
    if (child && RESULT_TEXTS.has(name)) this.read(name);
    else if (child && name === 'host') this.inResultHost = true;
    else if (name === 'hostname' && parent === 'host' && this.depth === result.depth + 2) {
      this.read(name);
    } else if (name === 'nvt' && this.depth === result.depth + 1) {
      result.oid = presentText(attributes.oid);
    } else if (name === 'ref' && parent === 'refs' && this.depth === result.depth + 3) {
      const id = presentText(attributes.id);
      if (attributes.type?.toLowerCase() === 'cve' && id) result.cves.push(id);
    } else if (name === 'cve' && parent === 'nvt' && this.depth === result.depth + 2) {
      this.read(name);
    }
  }

  private read(element: string): void {
    this.reading = { element, depth: this.depth, text: '' };
  }

  private addResult(result: GreenboneResult): void {
    const ip = presentText(result.host);
    const group = this.hosts.group(ip, `results[${result.index}]`, ip);
    group.hostname ??= result.hostname;
    group.vulnerabilities ??= new VulnerabilityList();
    const port = PORT.exec(presentText(result.texts.get('port')) ?? '');
    if (port) HostGroups.addService(group, Number(port[1]), port[2].toLowerCase());
    const score = numberOrText(result.texts.get('severity'));
    if (!(typeof score === 'number' ? score > 0 : score !== null && !score.startsWith('-'))) {
      return;
    }
    const summary = presentText(result.texts.get('name')) ?? null;
    const cves = result.cves.length > 0 ? result.cves : this.legacyCves(result.cveText);
    const ids = cves.length > 0 ? cves : [`OPENVAS-${result.oid ?? ''}`];
    for (const id of ids) {
      group.vulnerabilities.add({ id: vulnerabilityId(id), score, summary, publishedDate: null });
    }
  }

  private legacyCves(text: string | undefined): string[] {
    return (text ?? '')
      .split(',')
      .map((cve) => cve.trim())
      .filter((cve) => cve !== '' && cve !== 'NOCVE');
  }
}
