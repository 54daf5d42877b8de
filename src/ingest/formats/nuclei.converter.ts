import { isIP } from 'node:net';
import type { ConvertedItem } from './converted-item.js';
import { FormatError } from './format-error.js';
import { HostGroups } from './host-groups.js';
import type { JsonItemsHandler } from './json.converter.js';
import { JsonRecords } from './json-records.js';
import type { JsonKind, JsonPath, JsonStep } from './json-stream.js';
import { jsonText, numberOrText, severityScore, vulnerabilityId } from './scan-values.js';
import { VulnerabilityList } from './vulnerability-list.js';

/** A result's members read (`info` holds the template's name, severity and classification). */
interface NucleiResult {
  ip?: unknown;
  host?: unknown;
  'template-id'?: unknown;
  info?: {
    name?: unknown;
    severity?: unknown;
    classification?: { 'cve-id'?: unknown; 'cvss-score'?: unknown } | null;
  } | null;
}

/**
 * What Nuclei's `host` names (`scanme.example`, `https://scanme.example:8443/path`,
 * `192.0.2.10:22`, `[2001:db8::10]:443`): a host name, or an address.
 */
export function hostOf(host: string | undefined): { name?: string; address?: string } {
  if (host === undefined) return {};
  let rest = host.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');
  rest = rest.split(/[/?#]/, 1)[0];
  rest = rest.slice(rest.lastIndexOf('@') + 1);
  const bracketed = /^\[([^\]]*)\]/.exec(rest);
  if (bracketed) return isIP(bracketed[1]) ? { address: bracketed[1] } : {};
  if (isIP(rest) === 6) return { address: rest };
  const name = rest.replace(/:\d*$/, '');
  if (name === '') return {};
  return isIP(name) ? { address: name } : { name };
}

/** `cve-id` as Nuclei writes it: a list, one string, or null. */
function cveIds(value: unknown): string[] {
  const list = Array.isArray(value) ? value : [value];
  return list
    .flatMap((entry) => (typeof entry === 'string' ? entry.split(',') : []))
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}

/**
 * Nuclei's JSON Lines (`-jsonl`): a result per line, or a JSON array of them (`-je`). Results are
 * grouped by their `ip` (else their `host`'s name): one asset each at the end of the body, with
 * a vulnerability per result. `results[i]` is the result on line i (from 0), or the array's
 * i-th; an asset is named by its address's first result.
 */
export class NucleiConverter implements JsonItemsHandler {
  private readonly hosts = new HostGroups(false);
  private readonly records = new JsonRecords('the Nuclei body', 'results');
  /** The name of the result being read: its line, or its index in the array. */
  private index = 0;

  step(path: JsonPath, kind: JsonKind, line: number): JsonStep {
    if (this.records.at(path, kind) === 'array') return 'descend';
    const index = this.records.indexOf(path) ?? line;
    if (kind !== 'object') throw new FormatError(`results[${index}] must be a JSON object`);
    this.index = index;
    // A result is a few kilobytes: parsed whole, as a JSON body's items are.
    return 'capture';
  }

  value(_path: JsonPath, value: unknown): void {
    const result = value as NucleiResult;
    const host = hostOf(jsonText(result.host));
    const ip = jsonText(result.ip) ?? host.address;
    const { name } = host;
    const group = this.hosts.group(ip ?? name, `results[${this.index}]`, ip);
    group.hostname ??= name;
    group.vulnerabilities ??= new VulnerabilityList();
    const info = typeof result.info === 'object' && result.info !== null ? result.info : {};
    const classification =
      typeof info.classification === 'object' && info.classification !== null
        ? info.classification
        : {};
    const cvss = classification['cvss-score'];
    const score =
      typeof cvss === 'number'
        ? cvss
        : (numberOrText(jsonText(cvss)) ?? severityScore(info.severity));
    const summary = jsonText(info.name) ?? null;
    const cves = cveIds(classification['cve-id']);
    const ids = cves.length > 0 ? cves : [`NUCLEI-${jsonText(result['template-id']) ?? ''}`];
    for (const id of ids) {
      group.vulnerabilities.add({ id: vulnerabilityId(id), score, summary, publishedDate: null });
    }
  }

  closed(): void {
    // Only the array of -je is descended into.
  }

  take(): ConvertedItem[] {
    return [];
  }

  end(): Iterable<ConvertedItem> {
    return this.hosts.items();
  }
}
