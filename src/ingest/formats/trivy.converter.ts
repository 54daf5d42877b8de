import type { ConvertedItem, RawAssetItem, RawVulnerability } from './converted-item.js';
import { FormatError } from './format-error.js';
import type { JsonItemsHandler } from './json.converter.js';
import type { JsonKind, JsonPath, JsonStep } from './json-stream.js';
import { jsonText, severityScore, vulnerabilityId } from './scan-values.js';
import { VulnerabilityList } from './vulnerability-list.js';

/** A report's members read whole; `Metadata` and `Results` are descended into. */
const REPORT_VALUES = new Set(['SchemaVersion', 'ArtifactName', 'ArtifactType']);
/** A vulnerability's members read. */
const VULNERABILITY_VALUES = new Set([
  'VulnerabilityID',
  'Severity',
  'Title',
  'PublishedDate',
  'CVSS',
]);
/** Trivy writes times: the day is the date. */
const DAY = /^(\d{4}-\d{2}-\d{2})T/;

interface TrivyReport {
  index: number;
  values: Map<string, unknown>;
  vulnerabilities: VulnerabilityList;
  vulnerability: Map<string, unknown> | null;
}

/** Whether a path is `Results[i].Vulnerabilities[j]` (or below it, with `length`). */
function isVulnerability(path: JsonPath, length = 4): boolean {
  return path.length === length && path[0] === 'Results' && path[2] === 'Vulnerabilities';
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
 * descriptions stream by.
 */
export class TrivyConverter implements JsonItemsHandler {
  private reportCount = 0;
  private report: TrivyReport | null = null;
  private items: ConvertedItem[] = [];

  step(path: JsonPath, kind: JsonKind): JsonStep {
    const report = this.report;
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
        vulnerability: null,
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
    if (isVulnerability(path)) {
      report!.vulnerability = new Map();
      return 'descend';
    }
    return isVulnerability(path, 5) && VULNERABILITY_VALUES.has(path[4] as string)
      ? 'capture'
      : 'skip';
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
    } else {
      report.vulnerability?.set(path[4] as string, value);
    }
  }

  closed(path: JsonPath): void {
    const report = this.report;
    if (!report) return;
    if (isVulnerability(path) && report.vulnerability) {
      const vulnerability = this.vulnerability(report.vulnerability);
      if (vulnerability) report.vulnerabilities.add(vulnerability);
      report.vulnerability = null;
    } else if (path.length === 0) {
      this.items.push({
        part: 'assets',
        path: `hosts[${report.index}]`,
        value: this.asset(report),
      });
      this.report = null;
    }
  }

  take(): ConvertedItem[] {
    const items = this.items;
    this.items = [];
    return items;
  }

  end(): ConvertedItem[] {
    return [];
  }

  private vulnerability(values: Map<string, unknown>): RawVulnerability | null {
    const id = jsonText(values.get('VulnerabilityID'));
    if (id === undefined) return null;
    const published = jsonText(values.get('PublishedDate'));
    return {
      id: vulnerabilityId(id),
      score: highestV3(values.get('CVSS')) ?? severityScore(values.get('Severity')),
      summary: jsonText(values.get('Title')) ?? null,
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
