import type { ServiceRow } from '../../database/tables/services.table.js';
import type { IngestService, IngestVulnerability } from '../ingest-payload.js';
import type { RelationRow } from './ingest-plan.js';
import { type AssetPlan, type AssetUpdate } from './plan-assets.js';
import { ASSET_FIELDS, LIST_FIELDS } from '../../database/tables/assets.table.js';
import { identityValues } from '../../common/field-rules/identity-values.js';
import type { RelationPlan } from './plan-relations.js';

/** Entries each list of `changes` holds at most. */
export const CHANGES_PER_LIST = 100;

/** `{"<field>": [before, after]}` for every field whose value changed. */
export type FieldChanges = Record<string, [unknown, unknown]>;

export interface AssetChange {
  id: string;
  name: string;
  fields?: FieldChanges;
}

export interface RelationChange {
  id: string;
  sourceAssetId: string;
  targetAssetId: string;
  type: string;
  fields?: FieldChanges;
}

export interface ChangeLists<T> {
  created: T[];
  updated: T[];
  deleted: T[];
}

/** A finding opened, reopened or fixed, as the change lists name it. */
export interface FindingChangeEntry {
  assetId: string;
  vulnId: string;
}

/** What a run did to findings. */
export interface FindingChangeLists {
  opened: FindingChangeEntry[];
  reopened: FindingChangeEntry[];
  fixed: FindingChangeEntry[];
}

/** The answer's `changes`. */
export interface IngestChanges {
  assets: ChangeLists<AssetChange>;
  relations: ChangeLists<RelationChange>;
  findings: FindingChangeLists;
  truncated: boolean;
}

/** The first CHANGES_PER_LIST entries of a list, and how many there were in all. */
class BoundedList<T> {
  readonly entries: T[] = [];
  total = 0;

  /** `make` runs only while there is room: nothing is made for an entry left out. */
  add(make: () => T): void {
    this.total++;
    if (this.entries.length < CHANGES_PER_LIST) this.entries.push(make());
  }

  /** Entries given whole (at most one beyond the limit, to know it was cut), and the total. */
  set(entries: readonly T[], total: number): void {
    this.entries.splice(0, this.entries.length, ...entries.slice(0, CHANGES_PER_LIST));
    this.total = Math.max(total, entries.length);
  }

  get truncated(): boolean {
    return this.total > this.entries.length;
  }
}

/** Vulnerabilities as the API shows them: in id order. */
function shownVulnerabilities(list: readonly IngestVulnerability[]): IngestVulnerability[] {
  return list
    .map(({ id, score, summary, publishedDate }) => ({ id, score, summary, publishedDate }))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Services as the API shows them: in port, then protocol order. */
function shownServices(list: readonly (ServiceRow | IngestService)[]): IngestService[] {
  return list
    .map(({ port, protocol, name, product, version }) => ({
      port,
      protocol,
      name,
      product,
      version,
    }))
    .sort((a, b) =>
      a.port !== b.port
        ? a.port - b.port
        : a.protocol < b.protocol
          ? -1
          : a.protocol > b.protocol
            ? 1
            : 0,
    );
}

/** The lists a matched asset's item gave that replaced different stored ones. */
export interface ReplacingLists {
  vulnerabilities?: readonly IngestVulnerability[];
  services?: readonly IngestService[];
}

/**
 * What changed in a matched asset, field by field as the API names them. `lists`: the lists
 * given, when they replaced different ones. `seenAt`: the run's time, as the API shows a
 * timestamp.
 */
export function assetChangeFields(
  update: AssetUpdate,
  source: string | null,
  { vulnerabilities, services }: ReplacingLists,
  seenAt: string,
): FieldChanges {
  const { before, after } = update;
  const fields: FieldChanges = {};
  for (const field of [...ASSET_FIELDS, 'source'] as const) {
    if (before[field] !== after[field]) fields[field] = [before[field], after[field]];
  }
  for (const [column, field] of LIST_FIELDS) {
    if (before[column] !== after[column])
      fields[field] = [identityValues(before[column]), identityValues(after[column])];
  }
  if (update.sourcesBefore !== null && source !== null) {
    fields.sources = [update.sourcesBefore, [...update.sourcesBefore, source]];
  }
  if (update.firstSeen) fields.firstSeenAt = [null, seenAt];
  if (update.vulnerabilitiesBefore !== null && vulnerabilities) {
    fields.vulnerabilities = [
      shownVulnerabilities(update.vulnerabilitiesBefore),
      shownVulnerabilities(vulnerabilities),
    ];
  }
  if (update.servicesBefore !== null && services) {
    fields.services = [shownServices(update.servicesBefore), shownServices(services)];
  }
  return fields;
}

export function relationChangeFields(before: RelationRow, after: RelationRow): FieldChanges {
  const fields: FieldChanges = {};
  if (before.direction !== after.direction) fields.direction = [before.direction, after.direction];
  if (before.protocol !== after.protocol) fields.protocol = [before.protocol, after.protocol];
  if (before.to_ports !== after.to_ports) fields.toPorts = [before.to_ports, after.to_ports];
  return fields;
}

export const relationChange = (row: RelationRow): RelationChange => ({
  id: row.id,
  sourceAssetId: row.source_asset_id,
  targetAssetId: row.target_asset_id,
  type: row.type,
});

/** An asset kept by deleteStale with its source taken out, as its `sources` were. */
export interface SourceRemoval {
  id: string;
  name: string;
  sources: string[];
}

/**
 * The answer's `changes`, gathered as the plans are made: the first CHANGES_PER_LIST entries of
 * each list (created and updated ones in payload order, deleted ones in id order) and how many
 * there are, so that a run of any size holds a few hundred entries at most.
 */
export class ChangeLog {
  private readonly assets = {
    created: new BoundedList<AssetChange>(),
    updated: new BoundedList<AssetChange>(),
    deleted: new BoundedList<AssetChange>(),
  };
  private readonly relations = {
    created: new BoundedList<RelationChange>(),
    updated: new BoundedList<RelationChange>(),
    deleted: new BoundedList<RelationChange>(),
  };
  private readonly findings = {
    opened: new BoundedList<FindingChangeEntry>(),
    reopened: new BoundedList<FindingChangeEntry>(),
    fixed: new BoundedList<FindingChangeEntry>(),
  };

  /** `seenAt`: the run's time as the API shows it (a first sighting's `firstSeenAt`). */
  constructor(
    private readonly source: string | null,
    private readonly seenAt: string,
  ) {}

  addAssets(plan: AssetPlan): void {
    for (const [assetId, findings] of plan.findingPlans) {
      for (const [list, vulnIds] of [
        [this.findings.opened, findings.opened],
        [this.findings.reopened, findings.reopened],
        [this.findings.fixed, findings.fixed],
      ] as const) {
        for (const vulnId of vulnIds) list.add(() => ({ assetId, vulnId }));
      }
    }
    for (const row of plan.creates) {
      this.assets.created.add(() => ({ id: row.id, name: row.name }));
    }
    for (const update of plan.updates) {
      this.assets.updated.add(() => ({
        id: update.after.id,
        name: update.after.name,
        fields: assetChangeFields(
          update,
          this.source,
          {
            vulnerabilities: plan.vulnerabilityLists.get(update.after.id),
            services: plan.serviceLists.get(update.after.id),
          },
          this.seenAt,
        ),
      }));
    }
  }

  addRelations(plan: RelationPlan): void {
    for (const row of plan.creates) this.relations.created.add(() => relationChange(row));
    plan.updates.forEach((row, index) =>
      this.relations.updated.add(() => ({
        ...relationChange(row),
        fields: relationChangeFields(plan.updatedFrom[index], row),
      })),
    );
  }

  /**
   * deleteStale's kept assets that lose the payload's source, after the payload's updates:
   * `removals`, the first ones in id order (up to CHANGES_PER_LIST), of `total`.
   */
  addSourceRemovals(removals: readonly SourceRemoval[], total: number): void {
    const list = this.assets.updated;
    for (const removal of removals) {
      list.add(() => ({
        id: removal.id,
        name: removal.name,
        fields: {
          sources: [removal.sources, removal.sources.filter((name) => name !== this.source)],
        },
      }));
    }
    list.total += total - removals.length;
  }

  /** The first deleted assets and relations in id order, and how many are deleted. */
  setDeleted(
    assets: readonly AssetChange[],
    assetTotal: number,
    relations: readonly RelationChange[],
    relationTotal: number,
  ): void {
    this.assets.deleted.set(assets, assetTotal);
    this.relations.deleted.set(relations, relationTotal);
  }

  result(): IngestChanges {
    const lists = [
      ...Object.values(this.assets),
      ...Object.values(this.relations),
      ...Object.values(this.findings),
    ];
    return {
      assets: {
        created: this.assets.created.entries,
        updated: this.assets.updated.entries,
        deleted: this.assets.deleted.entries,
      },
      relations: {
        created: this.relations.created.entries,
        updated: this.relations.updated.entries,
        deleted: this.relations.deleted.entries,
      },
      findings: {
        opened: this.findings.opened.entries,
        reopened: this.findings.reopened.entries,
        fixed: this.findings.fixed.entries,
      },
      truncated: lists.some((list) => list.truncated),
    };
  }
}
