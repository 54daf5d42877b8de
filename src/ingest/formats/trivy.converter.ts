import type { ConvertedItem, RawAssetItem, RawVulnerability } from './converted-item.js';
import { FormatError } from './format-error.js';
import type { JsonItemsHandler } from './json.converter.js';
import type { JsonKind, JsonPath, JsonStep } from './json-stream.js';
import { jsonText, severityScore, vulnerabilityId } from './scan-values.js';
import { VulnerabilityList } from './vulnerability-list.js';

/** A report's members read whole; `Metadata` and `Results` are descended into. */
const REPORT_VALUES = new Set(['SchemaVersion', 'ArtifactName', 'ArtifactType']);
/** Trivy writes times: the day is the date. */
const DAY = /^(\d{4}-\d{2}-\d{2})T/;

interface TrivyReport {
  index: number;
  values: Map<string, unknown>;
  vulnerabilities: VulnerabilityList;
}

/** The members of a vulnerability read. */
interface TrivyVulnerability {
  VulnerabilityID?: unknown;
  Severity?: unknown;
  Title?: unknown;
  PublishedDate?: unknown;
  CVSS?: unknown;
}

/** Whether a path is `Results[i].Vulnerabilities[j]`. */
function isVulnerability(path: JsonPath): boolean {
  return path.length === 4 && path[0] === 'Results' && path[2] === 'Vulnerabilities';
}

/** The highest CVSS v3 score of any source (`{"nvd": {"V3Score": 9.8}, "redhat": {...}}`). */
function highestV3(cvss: unknown): number | undefined {
  if (typeof cvss !== 'object' || cvss === null) return undefined;
  let highest: number | undefined;
  for (const source of Object.values(cvss)) {
    const score = (source as { V3Score?: unknown } | null)?.V3Score;
    if (typeof score === 'number' && (highest === undefined || score > highest)) highest = score;
  }
  return highest;
}

/**
 * Trivy's JSON report (`trivy image -f json`, schema version 2): one asset for the scanned
 * artifact, with a vulnerability per distinct `VulnerabilityID` of its `Results`. Several
 * reports may follow one another in a body (one per image of a pipeline, appended to one file);
 * `hosts[i]` names the i-th from 0. Only the members mapped are parsed: the packages, layers and
 * secrets stream by.
 */
export class TrivyConverter implements JsonItemsHandler {
  private reportCount = 0;
  private report: TrivyReport | null = null;
  private items: ConvertedItem[] = [];

  step(path: JsonPath, kind: JsonKind): JsonStep {
    if (path.length === 0) {
      if (kind !== 'object') {
        throw new FormatError(
          `hosts[${this.reportCount}] must be a Trivy report object (trivy image -f json, schema version 2)${kind === 'array' ? '; an array is what schema version 1 wrote' : ''}`,
        );
      }
      this.report = {
        index: this.reportCount++,
        values: new Map(),
        vulnerabilities: new VulnerabilityList(),
      };
      return 'descend';
    }
    const [first] = path;
    if (path.length === 1) {
      if (typeof first === 'string' && REPORT_VALUES.has(first)) return 'capture';
      return first === 'Metadata' || first === 'Results' ? 'descend' : 'skip';
    }
    if (first === 'Metadata') return path.length === 2 && path[1] === 'OS' ? 'capture' : 'skip';
    if (first !== 'Results') return 'skip';
    if (path.length === 2) return 'descend';
    if (path.length === 3) return path[2] === 'Vulnerabilities' ? 'descend' : 'skip';
    // A vulnerability is a kilobyte or two: parsed whole. The report around it (its packages
    // and layers can run to megabytes) is not.
    return isVulnerability(path) ? 'capture' : 'skip';
  }

  value(path: JsonPath, value: unknown): void {
    const report = this.report!;
    if (path.length === 1) {
      if (path[0] === 'SchemaVersion' && value !== 2) {
        throw new FormatError(
          `hosts[${report.index}].SchemaVersion is ${JSON.stringify(value)}: only Trivy's schema version 2 is read`,
        );
      }
      report.values.set(path[0] as string, value);
    } else if (path[0] === 'Metadata') {
      report.values.set('OS', value);
    } else if (typeof value === 'object' && value !== null) {
      const vulnerability = this.vulnerability(value);
      if (vulnerability) report.vulnerabilities.add(vulnerability);
    }
  }

  closed(path: JsonPath): void {
    const report = this.report;
    if (!report || path.length !== 0) return;
    this.items.push({ part: 'assets', path: `hosts[${report.index}]`, value: this.asset(report) });
    this.report = null;
  }

  take(): ConvertedItem[] {
    const items = this.items;
    this.items = [];
    return items;
  }

  end(): ConvertedItem[] {
    return [];
  }

  private vulnerability(values: TrivyVulnerability): RawVulnerability | null {
    const id = jsonText(values.VulnerabilityID);
    if (id === undefined) return null;
    const published = jsonText(values.PublishedDate);
    return {
      id: vulnerabilityId(id),
      score: highestV3(values.CVSS) ?? severityScore(values.Severity),
      summary: jsonText(values.Title) ?? null,
      publishedDate: published === undefined ? null : (DAY.exec(published)?.[1] ?? published),
    };
  }

  private asset(report: TrivyReport): RawAssetItem {
    const { values } = report;
    const asset: RawAssetItem = {};
    const artifact = jsonText(values.get('ArtifactName'));
    if (artifact !== undefined) {
      asset.id = artifact;
      asset.name = artifact;
    }
    const type = jsonText(values.get('ArtifactType'));
    if (type !== undefined) asset.type = type === 'container_image' ? 'container-image' : type;
    const os = values.get('OS') as { Family?: unknown; Name?: unknown } | null | undefined;
    if (typeof os === 'object' && os !== null) {
      const osVersion = [jsonText(os.Family), jsonText(os.Name)].filter(Boolean).join(' ');
      if (osVersion !== '') asset.os_version = osVersion;
    }
    asset.vulnerabilities = report.vulnerabilities.items();
    return asset;
  }
}
