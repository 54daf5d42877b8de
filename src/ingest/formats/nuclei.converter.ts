import { isIP } from 'node:net';
import type { ConvertedItem } from './converted-item.js';
import { FormatError } from './format-error.js';
import { HostGroups } from './host-groups.js';
import type { JsonItemsHandler } from './json.converter.js';
import type { JsonKind, JsonPath, JsonStep } from './json-stream.js';
import { jsonText, numberOrText, severityScore, vulnerabilityId } from './scan-values.js';
import { VulnerabilityList } from './vulnerability-list.js';

/** The members of a result read, by their path in it; the rest is skipped. */
const READ: ReadonlyMap<string, JsonStep> = new Map([
  ['ip', 'capture'],
  ['host', 'capture'],
  ['template-id', 'capture'],
  ['info', 'descend'],
  ['info/name', 'capture'],
  ['info/severity', 'capture'],
  ['info/classification', 'descend'],
  ['info/classification/cve-id', 'capture'],
  ['info/classification/cvss-score', 'capture'],
]);

/** What a result has said: the captured values by their path. */
type NucleiResult = { index: number; values: Map<string, unknown> };

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
  private inArray = false;
  private started = false;
  private result: NucleiResult | null = null;

  step(path: JsonPath, kind: JsonKind, line: number): JsonStep {
    if (path.length === 0 && !this.started) {
      this.started = true;
      // A body that starts with an array is an array of results (-je), and nothing else.
      if (kind === 'array') {
        this.inArray = true;
        return 'descend';
      }
    }
    if (path.length === 0 && this.inArray) {
      throw new FormatError('the Nuclei body holds something after its array of results');
    }
    const base = this.inArray ? 1 : 0;
    if (path.length === base) {
      const index = this.inArray ? (path[0] as number) : line;
      if (kind !== 'object') throw new FormatError(`results[${index}] must be a JSON object`);
      this.result = { index, values: new Map() };
      return 'descend';
    }
    return READ.get(path.slice(base).join('/')) ?? 'skip';
  }

  value(path: JsonPath, value: unknown): void {
    this.result!.values.set(path.slice(this.inArray ? 1 : 0).join('/'), value);
  }

  closed(path: JsonPath): void {
    if (path.length !== (this.inArray ? 1 : 0) || !this.result) return;
    const { index, values } = this.result;
    this.result = null;
    const host = hostOf(jsonText(values.get('host')));
    const ip = jsonText(values.get('ip')) ?? host.address;
    const { name } = host;
    const group = this.hosts.group(ip ?? name, `results[${index}]`, ip);
    group.hostname ??= name;
    group.vulnerabilities ??= new VulnerabilityList();
    const cvss = values.get('info/classification/cvss-score');
    const score =
      typeof cvss === 'number'
        ? cvss
        : (numberOrText(jsonText(cvss)) ?? severityScore(values.get('info/severity')));
    const summary = jsonText(values.get('info/name')) ?? null;
    const cves = cveIds(values.get('info/classification/cve-id'));
    const ids = cves.length > 0 ? cves : [`NUCLEI-${jsonText(values.get('template-id')) ?? ''}`];
    for (const id of ids) {
      group.vulnerabilities.add({ id: vulnerabilityId(id), score, summary, publishedDate: null });
    }
  }

  take(): ConvertedItem[] {
    return [];
  }

  end(): ConvertedItem[] {
    return this.hosts.items();
  }
}
