import { isoTimestamp } from '../../database/timestamps.js';
import { toServiceResponse } from '../../assets/dto/service-response.dto.js';
import { groupByAsset } from '../../assets/group-by-asset.js';
import {
  changedFields,
  type ChangeInput,
  type ChangeOrigin,
} from '../../database/history/change-origin.js';
import { toRelationResponse } from '../../relations/dto/relation-response.dto.js';
import { chunks, idsPerStatement, type IngestSql } from '../../database/ingest-sql.js';
import type { RelationRow } from '../plan/ingest-plan.js';
import type { CreatedObjectType } from '../../database/history/creation-sql.js';
import { AssetStoredRows } from '../../database/repositories/assets/asset-stored-rows.js';
import {
  ChangeIngestWrites,
  type CreatedTable,
} from '../../database/repositories/changes/change-ingest-writes.js';
import { findingStatusChanges } from '../../findings/plan/finding-status-changes.js';
import {
  RelationStoredRows,
  type StoredRelationRow,
} from '../../database/repositories/relations/relation-stored-rows.js';
import { type AssetPlan, type AssetUpdate } from '../plan/plan-assets.js';
import { ASSET_FIELDS, LIST_FIELDS } from '../../database/tables/assets.table.js';
import { identityValues } from '../../common/field-rules/identity-values.js';
import { byPortProtocol, serviceList, shownAssets, vulnerabilityList } from './shown-assets.js';

// Records made and handed over at once, between turns of the event loop.
const CHANGES_PER_INSERT = 500;

function relationResponse(row: StoredRelationRow) {
  return toRelationResponse({
    id: row.id,
    sourceAssetId: row.source_asset_id,
    targetAssetId: row.target_asset_id,
    type: row.type,
    direction: row.direction,
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
  private readonly nowIso: string;
  private readonly perStatement: number;
  private readonly records: ChangeIngestWrites;
  /** Reads in the transaction: what is deleted, as it is just before its delete. */
  private readonly assetRows: AssetStoredRows;
  private readonly relationRows: RelationStoredRows;
  /** The run's change set, made at its first record. */
  private changeSet: Promise<number> | null = null;

  constructor(
    private readonly sql: IngestSql,
    private readonly origin: ChangeOrigin,
    private readonly source: string | null,
    now: Date,
  ) {
    this.records = new ChangeIngestWrites(sql, now);
    this.assetRows = new AssetStoredRows(sql);
    this.relationRows = new RelationStoredRows(sql);
    this.nowIso = now.toISOString();
    this.perStatement = idsPerStatement(sql);
  }

  /**
   * A slice's created and updated assets, and its findings created or whose status changed.
   * Unchanged ones (only their sighting moved) get none.
   */
  async assets(plan: AssetPlan): Promise<void> {
    await this.created(
      'assets',
      plan.creates.map((row) => row.id),
    );
    await this.write(this.updatedAssets(plan));
    const created: string[] = [];
    for (const findings of plan.findingPlans.values())
      for (const { id } of findings.creates) created.push(id);
    await this.created('findings', created);
    const now = this.nowIso;
    const changed = function* (): Generator<ChangeInput> {
      for (const findings of plan.findingPlans.values())
        if (findings.changes.length > 0) yield* findingStatusChanges(findings, now);
    };
    await this.write(changed());
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
   * (ChangeIngestWrites.created), idsPerStatement at a time.
   */
  private async created(table: CreatedTable, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    const changeSetId = await this.changeSetId();
    for (const part of chunks(ids, this.perStatement)) {
      await this.records.created(table, part, changeSetId);
    }
  }

  /**
   * Objects about to be updated (at most idsPerStatement): their creation records kept without
   * a copy get one, made from their rows before the write (creation-sql.ts). Every method here
   * that records a change does the same before it reads what is deleted.
   */
  async updating(objectType: CreatedObjectType, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.records.keepCreations(objectType, ids);
  }

  /** replace: every stored asset and relation, read before the store is emptied. */
  async deletingAll(): Promise<void> {
    const relations = await this.relationRows.allRows();
    for (const part of chunks(relations, this.perStatement)) {
      await this.updating(
        'relation',
        part.map((row) => row.id),
      );
    }
    await this.write(this.deletedRelations(relations));
    const ids = (await this.assetRows.allIds()).map((row) => row.id);
    for (const part of chunks(ids, this.perStatement)) await this.deletingAssets(part, false);
  }

  /** Assets about to be deleted (a slice of at most idsPerStatement), and their relations. */
  async deletingAssets(ids: string[], withRelations = true): Promise<void> {
    if (ids.length === 0) return;
    await this.updating('asset', ids);
    // Their findings go with them by the cascade; their records stay, with their copies.
    await this.records.keepFindingCreationsOf(ids);
    if (withRelations) {
      await this.records.keepRelationCreationsOf(ids);
      await this.write(this.deletedRelations(await this.relationRows.rowsTouching(ids)));
    }
    const assets = await shownAssets(this.assetRows, ids);
    const deleted = function* (): Generator<ChangeInput> {
      for (const asset of assets) {
        yield {
          action: 'delete',
          objectType: 'asset',
          objectId: asset.id,
          before: asset,
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
    await this.write(this.deletedRelations(await this.relationRows.rows(ids)));
  }

  /** deleteStale: assets about to lose the payload's source (at most idsPerStatement). */
  async losingSource(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.updating('asset', ids);
    const rows = await this.assetRows.unorderedSources(ids);
    const sourcesOf = groupByAsset(
      rows.sort((a, b) => a.position - b.position),
      (row) => row.source,
    );
    const { source } = this;
    const updated = function* (): Generator<ChangeInput> {
      for (const id of ids) {
        const before = sourcesOf.get(id) ?? [];
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
    for (const [column, field] of LIST_FIELDS) {
      before[field] = identityValues(change.before[column]);
      after[field] = identityValues(change.after[column]);
    }
    const id = change.after.id;
    if (change.vulnerabilitiesBefore !== null) {
      before.vulnerabilities = vulnerabilityList(change.vulnerabilitiesBefore);
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
    await this.records.insert(inputs, await this.changeSetId());
    await this.sql.letOtherRequestsRun();
  }

  /** The id of the run's change set (actor, request and run), written before its first record. */
  private changeSetId(): Promise<number> {
    this.changeSet ??= this.records.changeSet(this.origin);
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
