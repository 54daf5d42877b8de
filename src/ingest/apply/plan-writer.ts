import type { AssetRow } from '../../assets/asset-rows.js';
import type { IngestVulnerability } from '../ingest-payload.js';
import {
  chunks,
  idsPerStatement,
  placeholders,
  type IngestSql,
  type InsertColumn,
} from '../ingest-sql.js';
import type { IngestCounts, RelationRow } from '../plan/ingest-plan.js';
import { ASSET_FIELDS, type AssetPlan } from '../plan/plan-assets.js';
import type { StalePlan } from '../plan/plan-stale.js';

const text = (name: string): InsertColumn => ({ name, type: 'text' });
const timestamps: InsertColumn[] = [
  { name: 'created_at', type: 'timestamptz' },
  { name: 'updated_at', type: 'timestamptz' },
];
const ASSET_COLUMNS: InsertColumn[] = [
  ...['id', 'name', 'ip', 'type', 'vendor', 'model'].map(text),
  { name: 'risk_score', type: 'integer' },
  ...['site', 'os_version', 'source'].map(text),
  ...timestamps,
];
// An upsert on the primary key updates many rows in one statement; created_at stays.
const ASSET_UPSERT = `ON CONFLICT (id) DO UPDATE SET ${[...ASSET_FIELDS, 'source', 'updated_at']
  .map((column) => `${column} = excluded.${column}`)
  .join(', ')}`;
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

/** `items` mapped one by one as they are taken (by IngestSql.insert). */
function* mapped<T>(items: readonly T[], map: (item: T) => unknown[]): Generator<unknown[]> {
  for (const item of items) yield map(item);
}

function* vulnerabilityRows(lists: Map<string, IngestVulnerability[]>): Generator<unknown[]> {
  for (const [assetId, items] of lists) {
    for (const item of items) {
      yield [assetId, item.id, item.score, item.summary, item.publishedDate];
    }
  }
}

/**
 * The apply stage: writes plans in the caller's transaction, with multi-row statements (see
 * IngestSql.insert), through the same statements on either database.
 */
export class PlanWriter {
  /** created_at and updated_at of every row written, as the database takes them. */
  private readonly now: unknown;
  private readonly perStatement: number;

  constructor(private readonly sql: IngestSql) {
    this.now = sql.timestamp(new Date());
    this.perStatement = idsPerStatement(sql);
  }

  /** replace: the store emptied first. */
  async deleteAll(): Promise<Pick<IngestCounts, 'assetsDeleted' | 'relationsDeleted'>> {
    const relationsDeleted = await this.sql.run('DELETE FROM relations');
    await this.sql.run('DELETE FROM vulnerabilities');
    return { assetsDeleted: await this.sql.run('DELETE FROM assets'), relationsDeleted };
  }

  async assets(plan: AssetPlan): Promise<void> {
    const row = (asset: AssetRow) => [
      asset.id,
      ...ASSET_FIELDS.map((field) => asset[field]),
      asset.source,
      this.now,
      this.now,
    ];
    await this.sql.insert('assets', ASSET_COLUMNS, mapped(plan.creates, row));
    await this.sql.insert('assets', ASSET_COLUMNS, mapped(plan.updates, row), ASSET_UPSERT);
    for (const part of chunks(plan.replacedLists, this.perStatement)) {
      await this.sql.run(
        `DELETE FROM vulnerabilities WHERE asset_id IN (${placeholders(part)})`,
        part,
      );
    }
    await this.sql.insert(
      'vulnerabilities',
      VULNERABILITY_COLUMNS,
      vulnerabilityRows(plan.vulnerabilityLists),
    );
  }

  async relations(creates: RelationRow[], updates: RelationRow[]): Promise<void> {
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
    await this.sql.insert('relations', RELATION_COLUMNS, mapped(creates, row));
    await this.sql.insert('relations', RELATION_COLUMNS, mapped(updates, row), RELATION_UPSERT);
  }

  /** deleteStale; answers what it deleted, the stale assets' relations included. */
  async stale(plan: StalePlan): Promise<Pick<IngestCounts, 'assetsDeleted' | 'relationsDeleted'>> {
    const counts = { assetsDeleted: 0, relationsDeleted: 0 };
    for (const part of chunks(plan.assets, this.perStatement)) {
      const list = placeholders(part);
      // The assets' relations are deleted (and counted) here rather than by the cascade. The
      // assets are locked first, so that no relation to them is created in between by another
      // transaction (and then deleted by the cascade, uncounted).
      if (this.sql.forUpdate) {
        await this.sql.all(
          `SELECT id FROM assets WHERE id IN (${list}) ${this.sql.forUpdate}`,
          part,
        );
      }
      counts.relationsDeleted += await this.sql.run(
        `DELETE FROM relations WHERE source_asset_id IN (${list}) OR target_asset_id IN (${list})`,
        [...part, ...part],
      );
      counts.assetsDeleted += await this.sql.run(`DELETE FROM assets WHERE id IN (${list})`, part);
    }
    for (const part of chunks(plan.relations, this.perStatement)) {
      counts.relationsDeleted += await this.sql.run(
        `DELETE FROM relations WHERE id IN (${placeholders(part)})`,
        part,
      );
    }
    return counts;
  }
}
