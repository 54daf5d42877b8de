import {
  type AssetSourceRow,
  type ServiceRow,
  type StoredAssetRow,
  type VulnerabilityRow,
} from '../../assets/asset-rows.js';
import { isoTimestamp } from '../../database/timestamps.js';
import { toAssetResponse } from '../../assets/dto/asset-response.dto.js';
import { toServiceResponse } from '../../assets/dto/service-response.dto.js';
import { toVulnerabilityResponse } from '../../assets/dto/vulnerability-response.dto.js';
import {
  changedFields,
  changeSetOf,
  type ChangeInput,
  type ChangeOrigin,
} from '../../database/history/change-origin.js';
import { RecordIds } from '../../database/history/record-ids.js';
import { toRelationResponse } from '../../relations/dto/relation-response.dto.js';
import type { RelationDirection } from '../../common/field-rules/inventory-values.js';
import type { IngestService, IngestVulnerability } from '../ingest-payload.js';
import {
  chunks,
  idsPerStatement,
  placeholders,
  type IngestSql,
  type InsertColumn,
} from '../../database/ingest-sql.js';
import type { RelationRow } from '../plan/ingest-plan.js';
import { CHANGE_SET_INSERT, createdRecordsSql } from './change-sql.js';
import {
  keepCreationsSql,
  relationsOfAssets,
  type CreatedObjectType,
} from '../../database/history/creation-sql.js';
import { type AssetPlan, type AssetUpdate } from '../plan/plan-assets.js';
import { ASSET_FIELDS } from '../../database/tables/assets.table.js';

const text = (name: string): InsertColumn => ({ name, type: 'text' });
// Records made and handed over at once, between turns of the event loop.
const CHANGES_PER_INSERT = 500;
const CHANGE_COLUMNS: InsertColumn[] = [
  text('id'),
  { name: 'time', type: 'timestamptz' },
  ...['action', 'object_type', 'object_id', 'before', 'after'].map(text),
  { name: 'change_set_id', type: 'integer' },
];

const VULNERABILITY_SELECT =
  'SELECT asset_id, id, score, summary, CAST(published_date AS TEXT) AS published_date FROM vulnerabilities';
const SERVICE_SELECT = 'SELECT asset_id, port, protocol, name, product, version FROM services';

/** A relations row with its timestamps, as raw SQL reads it. */
interface StoredRelationRow extends RelationRow {
  created_at: Date | string;
  updated_at: Date | string;
}

// The lists in the order the API shows them (assets.service's reads).
const byVulnerabilityId = (a: { id: string }, b: { id: string }) =>
  a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
const byPortProtocol = (a: IngestService, b: IngestService) =>
  a.port - b.port || (a.protocol < b.protocol ? -1 : a.protocol > b.protocol ? 1 : 0);

const vulnerabilityList = (list: readonly IngestVulnerability[] | undefined) =>
  [...(list ?? [])].sort(byVulnerabilityId).map((item) => ({
    id: item.id,
    score: item.score,
    summary: item.summary,
    publishedDate: item.publishedDate,
  }));
const serviceList = (list: readonly IngestService[] | undefined) =>
  [...(list ?? [])].sort(byPortProtocol).map((item) => ({
    port: item.port,
    protocol: item.protocol,
    name: item.name,
    product: item.product,
    version: item.version,
  }));

function groupByAsset<R extends { asset_id: string }>(rows: R[]): Map<string, R[]> {
  const groups = new Map<string, R[]>();
  for (const row of rows) {
    const group = groups.get(row.asset_id);
    if (group) group.push(row);
    else groups.set(row.asset_id, [row]);
  }
  return groups;
}

function relationResponse(row: StoredRelationRow) {
  return toRelationResponse({
    id: row.id,
    sourceAssetId: row.source_asset_id,
    targetAssetId: row.target_asset_id,
    type: row.type,
    direction: row.direction as RelationDirection,
    protocol: row.protocol,
    toPorts: row.to_ports,
    createdAt: new Date(isoTimestamp(row.created_at)),
    updatedAt: new Date(isoTimestamp(row.updated_at)),
  });
}

/** What an ingestion may change in a relation it matched. */
function relationFields(relation: RelationRow) {
  return { direction: relation.direction, protocol: relation.protocol, toPorts: relation.to_ports };
}

/**
 * An ingestion's change records, written in its transaction beside the rows they describe,
 * with the same bulk inserts. Creates and updates are described from the plan, without a
 * read; what is deleted is read (in the transaction, just before its delete), as the API
 * showed it.
 */
export class ChangeWriter {
  private readonly time: unknown;
  private readonly nowIso: string;
  private readonly perStatement: number;
  private readonly ids: RecordIds;
  /** The run's change set, made at its first record. */
  private changeSet: Promise<number> | null = null;

  constructor(
    private readonly sql: IngestSql,
    private readonly origin: ChangeOrigin,
    private readonly source: string | null,
    now: Date,
  ) {
    this.time = sql.timestamp(now);
    this.ids = new RecordIds(now);
    this.nowIso = now.toISOString();
    this.perStatement = idsPerStatement(sql);
  }

  /** A slice's created and updated assets. Unchanged ones (only their sighting moved) get none. */
  async assets(plan: AssetPlan): Promise<void> {
    await this.created(
      'assets',
      plan.creates.map((row) => row.id),
    );
    await this.write(this.updatedAssets(plan));
  }

  async relations(
    creates: RelationRow[],
    updates: RelationRow[],
    from: RelationRow[],
  ): Promise<void> {
    const updated = function* (): Generator<ChangeInput> {
      for (const [index, row] of updates.entries())
        yield update('relation', row.id, relationFields(from[index]), relationFields(row));
    };
    await this.created(
      'relations',
      creates.map((row) => row.id),
    );
    await this.write(updated());
  }

  /**
   * The creation of `table`'s rows `ids`, just written, recorded by the database from them
   * (change-sql.ts), idsPerStatement at a time.
   */
  private async created(table: 'assets' | 'relations', ids: string[]): Promise<void> {
    const { time, sql } = this;
    if (ids.length === 0) return;
    const changeSetId = await this.changeSetId();
    for (const part of chunks(ids, this.perStatement)) {
      await sql.runQueued(createdRecordsSql(sql.dialect, table, part.length), [
        this.ids.prefix,
        // ROW_NUMBER counts from 1.
        this.ids.reserve(part.length) - 1,
        time,
        changeSetId,
        ...sql.dialect.idListValues(part),
      ]);
    }
  }

  /**
   * Objects about to be updated (at most idsPerStatement): their creation records kept without
   * a copy get one, made from their rows before the write (creation-sql.ts). Every method here
   * that records a change does the same before it reads what is deleted.
   */
  async updating(objectType: CreatedObjectType, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.sql.runQueued(
      keepCreationsSql(this.sql.dialect, objectType, `IN (${placeholders(ids)})`),
      ids,
    );
  }

  /** replace: every stored asset and relation, read before the store is emptied. */
  async deletingAll(): Promise<void> {
    const relations = await this.sql.all<StoredRelationRow>('SELECT * FROM relations');
    for (const part of chunks(relations, this.perStatement)) {
      await this.updating(
        'relation',
        part.map((row) => row.id),
      );
    }
    await this.write(this.deletedRelations(relations));
    const ids = (await this.sql.all<{ id: string }>('SELECT id FROM assets')).map((row) => row.id);
    for (const part of chunks(ids, this.perStatement)) await this.deletingAssets(part, false);
  }

  /** Assets about to be deleted (a slice of at most idsPerStatement), and their relations. */
  async deletingAssets(ids: string[], withRelations = true): Promise<void> {
    if (ids.length === 0) return;
    const list = placeholders(ids);
    await this.updating('asset', ids);
    if (withRelations) {
      await this.sql.runQueued(
        keepCreationsSql(this.sql.dialect, 'relation', relationsOfAssets(`IN (${list})`)),
        [...ids, ...ids],
      );
      const relations = await this.sql.all<StoredRelationRow>(
        `SELECT * FROM relations WHERE source_asset_id IN (${list}) OR target_asset_id IN (${list})`,
        [...ids, ...ids],
      );
      await this.write(this.deletedRelations(relations));
    }
    const rows = await this.sql.all<StoredAssetRow>(
      `SELECT * FROM assets WHERE id IN (${list})`,
      ids,
    );
    const [vulnerabilities, services, sources] = await Promise.all([
      this.sql.all<VulnerabilityRow>(`${VULNERABILITY_SELECT} WHERE asset_id IN (${list})`, ids),
      this.sql.all<ServiceRow>(`${SERVICE_SELECT} WHERE asset_id IN (${list})`, ids),
      this.sql.all<AssetSourceRow & { position: number }>(
        `SELECT asset_id, source, position FROM asset_sources WHERE asset_id IN (${list})`,
        ids,
      ),
    ]);
    const vulnerabilitiesOf = groupByAsset(vulnerabilities.sort(byVulnerabilityId));
    const servicesOf = groupByAsset(services.sort(byPortProtocol));
    const sourcesOf = groupByAsset(sources.sort((a, b) => a.position - b.position));
    const deleted = function* (): Generator<ChangeInput> {
      for (const row of rows) {
        yield {
          action: 'delete',
          objectType: 'asset',
          objectId: row.id,
          before: toAssetResponse(row, {
            vulnerabilities: (vulnerabilitiesOf.get(row.id) ?? []).map(toVulnerabilityResponse),
            services: (servicesOf.get(row.id) ?? []).map(toServiceResponse),
            sources: (sourcesOf.get(row.id) ?? []).map((entry) => entry.source),
          }),
          after: null,
        };
      }
    };
    await this.write(deleted());
  }

  /** Relations about to be deleted by id (at most idsPerStatement). */
  async deletingRelations(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.updating('relation', ids);
    const rows = await this.sql.all<StoredRelationRow>(
      `SELECT * FROM relations WHERE id IN (${placeholders(ids)})`,
      ids,
    );
    await this.write(this.deletedRelations(rows));
  }

  /** deleteStale: assets about to lose the payload's source (at most idsPerStatement). */
  async losingSource(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.updating('asset', ids);
    const rows = await this.sql.all<AssetSourceRow & { position: number }>(
      `SELECT asset_id, source, position FROM asset_sources WHERE asset_id IN (${placeholders(ids)})`,
      ids,
    );
    const sourcesOf = groupByAsset(rows.sort((a, b) => a.position - b.position));
    const { source } = this;
    const updated = function* (): Generator<ChangeInput> {
      for (const id of ids) {
        const before = (sourcesOf.get(id) ?? []).map((row) => row.source);
        yield update(
          'asset',
          id,
          { sources: before },
          { sources: before.filter((name) => name !== source) },
        );
      }
    };
    await this.write(updated());
  }

  private *deletedRelations(rows: StoredRelationRow[]): Generator<ChangeInput> {
    for (const row of rows) {
      yield {
        action: 'delete',
        objectType: 'relation',
        objectId: row.id,
        before: relationResponse(row),
        after: null,
      };
    }
  }

  private *updatedAssets(plan: AssetPlan): Generator<ChangeInput> {
    for (const change of plan.updates) {
      const [before, after] = this.assetSides(change, plan);
      yield update('asset', change.after.id, before, after);
    }
  }

  /** What the plan knows changed of a matched asset, on either side, in the API's fields. */
  private assetSides(
    change: AssetUpdate,
    plan: AssetPlan,
  ): [Record<string, unknown>, Record<string, unknown>] {
    const before: Record<string, unknown> = {};
    const after: Record<string, unknown> = {};
    for (const field of [...ASSET_FIELDS, 'source'] as const) {
      before[field] = change.before[field];
      after[field] = change.after[field];
    }
    const id = change.after.id;
    if (change.vulnerabilitiesBefore !== null) {
      before.vulnerabilities = [...change.vulnerabilitiesBefore]
        .sort(byVulnerabilityId)
        .map(toVulnerabilityResponse);
      after.vulnerabilities = vulnerabilityList(plan.vulnerabilityLists.get(id));
    }
    if (change.servicesBefore !== null) {
      before.services = [...change.servicesBefore].sort(byPortProtocol).map(toServiceResponse);
      after.services = serviceList(plan.serviceLists.get(id));
    }
    if (change.sourcesBefore !== null && this.source !== null) {
      before.sources = change.sourcesBefore;
      after.sources = [...change.sourcesBefore, this.source];
    }
    if (change.firstSeen) {
      before.firstSeenAt = null;
      after.firstSeenAt = this.nowIso;
    }
    return [before, after];
  }

  /**
   * Writes the records, CHANGES_PER_INSERT at a time, giving other requests a turn in between:
   * each record's JSON is made as it is taken, and a whole slice's at once held the event loop.
   */
  private async write(inputs: Iterable<ChangeInput>): Promise<void> {
    let part: ChangeInput[] = [];
    for (const input of inputs) {
      part.push(input);
      if (part.length === CHANGES_PER_INSERT) {
        await this.insert(part);
        part = [];
      }
    }
    if (part.length > 0) await this.insert(part);
  }

  private async insert(inputs: ChangeInput[]): Promise<void> {
    const { time } = this;
    const changeSetId = await this.changeSetId();
    const rows = inputs.map((input) => [
      this.ids.next(),
      time,
      input.action,
      input.objectType,
      input.objectId,
      input.before === null ? null : JSON.stringify(input.before),
      input.after === null ? null : JSON.stringify(input.after),
      changeSetId,
    ]);
    await this.sql.insert('changes', CHANGE_COLUMNS, rows);
    await this.sql.letOtherRequestsRun();
  }

  /** The id of the run's change set (actor, request and run), written before its first record. */
  private changeSetId(): Promise<number> {
    this.changeSet ??= (async () => {
      const { actor, requestId, runId } = changeSetOf(this.origin);
      const [row] = await this.sql.all<{ id: number | string }>(CHANGE_SET_INSERT, [
        actor.userId,
        actor.email,
        actor.apiKeyId,
        actor.apiKeyPrefix,
        requestId,
        runId,
      ]);
      return Number(row.id);
    })();
    return this.changeSet;
  }
}

/**
 * An update's record, only the fields that changed. The plan counts it updated, so it is
 * recorded even when what it knows of both sides compares equal (the counts and the records
 * then always agree).
 */
function update(
  objectType: 'asset' | 'relation',
  objectId: string,
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): ChangeInput {
  const diff = changedFields(before, after) ?? { before: {}, after: {} };
  return { action: 'update', objectType, objectId, ...diff };
}
