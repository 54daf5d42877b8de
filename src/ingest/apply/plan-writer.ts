import type { AssetRow } from '../../assets/asset-rows.js';
import type { CreatedObjectType } from '../../database/history/creation-sql.js';
import type { ChangeWriter } from './change-writer.js';
import type { IngestService, IngestVulnerability } from '../ingest-payload.js';
import {
  chunks,
  idsPerStatement,
  placeholders,
  type IngestSql,
  type InsertColumn,
} from '../../database/ingest-sql.js';
import type { IngestCounts, RelationRow } from '../plan/ingest-plan.js';
import { type AssetPlan } from '../plan/plan-assets.js';
import { ASSET_FIELDS, ASSET_INSERT_COLUMNS } from '../../database/tables/assets.table.js';
import type { StaleAssetPlan } from '../plan/plan-stale.js';

const text = (name: string): InsertColumn => ({ name, type: 'text' });
const timestamps: InsertColumn[] = [
  { name: 'created_at', type: 'timestamptz' },
  { name: 'updated_at', type: 'timestamptz' },
];
// An upsert on the primary key updates many rows in one statement; created_at and origin stay,
// the first sighting is kept once set, the last one moves only with a source.
const ASSET_UPSERT = `ON CONFLICT (id) DO UPDATE SET ${[...ASSET_FIELDS, 'source', 'updated_at']
  .map((column) => `${column} = excluded.${column}`)
  .join(
    ', ',
  )}, first_seen_at = COALESCE(assets.first_seen_at, excluded.first_seen_at), last_seen_at = COALESCE(excluded.last_seen_at, assets.last_seen_at)`;
const ASSET_SOURCE_COLUMNS: InsertColumn[] = [
  text('asset_id'),
  text('source'),
  { name: 'position', type: 'integer' },
];
const RELATION_COLUMNS: InsertColumn[] = [
  ...['id', 'source_asset_id', 'target_asset_id', 'type', 'direction', 'protocol', 'to_ports'].map(
    text,
  ),
  ...timestamps,
];
const RELATION_UPSERT =
  'ON CONFLICT (id) DO UPDATE SET direction = excluded.direction, protocol = excluded.protocol, to_ports = excluded.to_ports, updated_at = excluded.updated_at';
const VULNERABILITY_COLUMNS: InsertColumn[] = [
  text('asset_id'),
  text('id'),
  { name: 'score', type: 'double precision' },
  text('summary'),
  { name: 'published_date', type: 'date' },
];
const SERVICE_COLUMNS: InsertColumn[] = [
  text('asset_id'),
  { name: 'port', type: 'integer' },
  ...['protocol', 'name', 'product', 'version'].map(text),
];

/** `items` mapped one by one as they are taken (by IngestSql.insert). */
function* mapped<T>(items: readonly T[], map: (item: T) => unknown[]): Generator<unknown[]> {
  for (const item of items) yield map(item);
}

/** The rows of lists by asset id, each item's values after its asset's id. */
function* listRows<T>(
  lists: Map<string, T[]>,
  values: (item: T) => unknown[],
): Generator<unknown[]> {
  for (const [assetId, items] of lists) {
    for (const item of items) yield [assetId, ...values(item)];
  }
}

const vulnerabilityValues = (item: IngestVulnerability) => [
  item.id,
  item.score,
  item.summary,
  item.publishedDate,
];
const serviceValues = (item: IngestService) => [
  item.port,
  item.protocol,
  item.name,
  item.product,
  item.version,
];

/**
 * The apply stage: writes plans in the caller's transaction, with multi-row statements (see
 * IngestSql.insert), through the same statements on either database.
 */
export class PlanWriter {
  /** created_at and updated_at of every row written, as the database takes them. */
  private readonly now: unknown;
  /** last_seen_at (and a first first_seen_at) of every asset named: the run's time, with a source. */
  private readonly seenAt: unknown;
  private readonly perStatement: number;

  /**
   * `now`: the run's time, written as created_at, updated_at and, with `source` (the payload's),
   * as the sightings.
   */
  constructor(
    private readonly sql: IngestSql,
    private readonly source: string | null,
    now: Date,
    /** Where the change records go; null when history is off. */
    private readonly changes: ChangeWriter | null = null,
  ) {
    this.now = sql.timestamp(now);
    this.seenAt = source === null ? null : this.now;
    this.perStatement = idsPerStatement(sql);
  }

  /** replace: the store emptied first. */
  async deleteAll(): Promise<Pick<IngestCounts, 'assetsDeleted' | 'relationsDeleted'>> {
    await this.changes?.deletingAll();
    const relationsDeleted = await this.sql.run('DELETE FROM relations');
    await this.sql.run('DELETE FROM vulnerabilities');
    await this.sql.run('DELETE FROM services');
    await this.sql.run('DELETE FROM asset_sources');
    return { assetsDeleted: await this.sql.run('DELETE FROM assets'), relationsDeleted };
  }

  async assets(plan: AssetPlan): Promise<void> {
    // In ASSET_INSERT_COLUMNS' order.
    const row = (asset: AssetRow) => [
      asset.id,
      ...ASSET_FIELDS.map((field) => asset[field]),
      asset.source,
      'ingest',
      this.seenAt,
      this.seenAt,
      this.now,
      this.now,
    ];
    const { source } = this;
    await this.keepCreations(
      'asset',
      plan.updates.map((update) => update.after.id),
    );
    await this.sql.insert('assets', ASSET_INSERT_COLUMNS, mapped(plan.creates, row));
    await this.sql.insert(
      'assets',
      ASSET_INSERT_COLUMNS,
      mapped(plan.updates, (update) => row(update.after)),
      ASSET_UPSERT,
    );
    if (source !== null) {
      // One bulk statement per idsPerStatement assets: the repeated run's main write.
      for (const part of chunks(plan.unchanged, this.perStatement)) {
        await this.sql.run(
          `UPDATE assets SET last_seen_at = ? WHERE id IN (${placeholders(part)})`,
          [this.now, ...part],
        );
      }
      await this.sql.insert(
        'asset_sources',
        ASSET_SOURCE_COLUMNS,
        mapped(plan.creates, (asset) => [asset.id, source, 0]),
      );
      await this.sql.insert(
        'asset_sources',
        ASSET_SOURCE_COLUMNS,
        mapped(plan.sourceAdds, ([assetId, position]) => [assetId, source, position]),
      );
    }
    await this.replaceLists(
      'vulnerabilities',
      VULNERABILITY_COLUMNS,
      plan.replacedLists,
      listRows(plan.vulnerabilityLists, vulnerabilityValues),
    );
    await this.replaceLists(
      'services',
      SERVICE_COLUMNS,
      plan.replacedServiceLists,
      listRows(plan.serviceLists, serviceValues),
    );
    await this.changes?.assets(plan);
  }

  /** Before `ids` are updated: their creation records get the copy they lack (ChangeWriter). */
  private async keepCreations(objectType: CreatedObjectType, ids: string[]): Promise<void> {
    if (!this.changes) return;
    for (const part of chunks(ids, this.perStatement))
      await this.changes.updating(objectType, part);
  }

  /** The stored lists of `replaced` assets deleted, then `rows` inserted: in bulk, per table. */
  private async replaceLists(
    table: 'vulnerabilities' | 'services',
    columns: InsertColumn[],
    replaced: string[],
    rows: Iterable<unknown[]>,
  ): Promise<void> {
    for (const part of chunks(replaced, this.perStatement)) {
      await this.sql.run(`DELETE FROM ${table} WHERE asset_id IN (${placeholders(part)})`, part);
    }
    await this.sql.insert(table, columns, rows);
  }

  /** `updatedFrom`: the stored row of each of `updates`, at the same index. */
  async relations(
    creates: RelationRow[],
    updates: RelationRow[],
    updatedFrom: RelationRow[],
  ): Promise<void> {
    const row = (relation: RelationRow) => [
      relation.id,
      relation.source_asset_id,
      relation.target_asset_id,
      relation.type,
      relation.direction,
      relation.protocol,
      relation.to_ports,
      this.now,
      this.now,
    ];
    await this.keepCreations(
      'relation',
      updates.map((relation) => relation.id),
    );
    await this.sql.insert('relations', RELATION_COLUMNS, mapped(creates, row));
    await this.sql.insert('relations', RELATION_COLUMNS, mapped(updates, row), RELATION_UPSERT);
    await this.changes?.relations(creates, updates, updatedFrom);
  }

  /**
   * deleteStale; answers what it deleted, the stale assets' relations included. `relations`:
   * the stored relations among the payload's assets that it does not list.
   */
  async stale(
    plan: StaleAssetPlan,
    relations: string[],
  ): Promise<Pick<IngestCounts, 'assetsDeleted' | 'relationsDeleted'>> {
    const counts = { assetsDeleted: 0, relationsDeleted: 0 };
    for (const part of chunks(plan.sourceRemovals, this.perStatement)) {
      const list = placeholders(part);
      await this.changes?.losingSource(part);
      await this.sql.run(`DELETE FROM asset_sources WHERE source = ? AND asset_id IN (${list})`, [
        this.source,
        ...part,
      ]);
      await this.sql.run(`UPDATE assets SET updated_at = ? WHERE id IN (${list})`, [
        this.now,
        ...part,
      ]);
    }
    for (const part of chunks(plan.deletes, this.perStatement)) {
      const list = placeholders(part);
      // The assets' relations are deleted (and counted) here rather than by the cascade. The
      // assets are locked first, so that no relation to them is created in between by another
      // transaction (and then deleted by the cascade, uncounted).
      const { lockRows } = this.sql.dialect;
      if (lockRows) {
        await this.sql.all(`SELECT id FROM assets WHERE id IN (${list}) ${lockRows}`, part);
      }
      await this.changes?.deletingAssets(part);
      counts.relationsDeleted += await this.sql.run(
        `DELETE FROM relations WHERE source_asset_id IN (${list}) OR target_asset_id IN (${list})`,
        [...part, ...part],
      );
      counts.assetsDeleted += await this.sql.run(`DELETE FROM assets WHERE id IN (${list})`, part);
    }
    for (const part of chunks(relations, this.perStatement)) {
      await this.changes?.deletingRelations(part);
      counts.relationsDeleted += await this.sql.run(
        `DELETE FROM relations WHERE id IN (${placeholders(part)})`,
        part,
      );
    }
    return counts;
  }
}
