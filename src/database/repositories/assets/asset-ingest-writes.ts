import type { ServiceValues } from '../../../common/field-rules/service-list.js';
import { chunks, idsPerStatement, placeholders, type IngestSql } from '../../ingest-sql.js';
import { ASSET_SOURCE_INSERT_COLUMNS } from '../../tables/asset-sources.table.js';
import {
  ASSET_FIELDS,
  ASSET_INSERT_COLUMNS,
  LIST_COLUMNS,
  type AssetRow,
} from '../../tables/assets.table.js';
import {
  ASSET_IDENTIFIER_INSERT_COLUMNS,
  identifierRows,
  identityOfRow,
} from '../../tables/asset-identifiers.table.js';
import { SERVICE_INSERT_COLUMNS, serviceRow } from '../../tables/services.table.js';

// An upsert on the primary key updates many rows in one statement; created_at and origin stay,
// the first sighting is kept once set, the last one moves only with a source.
const ASSET_UPSERT = `ON CONFLICT (id) DO UPDATE SET ${[
  ...ASSET_FIELDS,
  'source',
  'updated_at',
  ...LIST_COLUMNS,
]
  .map((column) => `${column} = excluded.${column}`)
  .join(
    ', ',
  )}, first_seen_at = COALESCE(assets.first_seen_at, excluded.first_seen_at), last_seen_at = COALESCE(excluded.last_seen_at, assets.last_seen_at)`;

/** `items` mapped one by one as they are taken (by IngestSql.insert). */
function* mapped<T>(items: readonly T[], map: (item: T) => unknown[]): Generator<unknown[]> {
  for (const item of items) yield map(item);
}

/** The rows of lists by asset id, each item's row made by `row`. */
function* listRows<T>(
  lists: ReadonlyMap<string, readonly T[]>,
  row: (assetId: string, item: T) => unknown[],
): Generator<unknown[]> {
  for (const [assetId, items] of lists) {
    for (const item of items) yield row(assetId, item);
  }
}

/** The identifier rows of assets' lists. */
function* identifierRowsOf(assets: readonly AssetRow[]): Generator<unknown[]> {
  for (const asset of assets) yield* identifierRows(asset.id, identityOfRow(asset));
}

/**
 * An ingestion's writes of assets and their lists, in its transaction (the apply stage), with
 * multi-row statements (IngestSql.insert), the same on either database. Lists of ids are bound
 * `IN (...)`, idsPerStatement to a statement.
 */
export class AssetIngestWrites {
  /** created_at and updated_at of every row written, as the database takes them. */
  private readonly now: unknown;
  /** last_seen_at (and a first first_seen_at) of every asset named: the run's time, with a source. */
  private readonly seenAt: unknown;
  private readonly perStatement: number;

  /** `now`: the run's time; `source`: the payload's (the sightings move only with one). */
  constructor(
    private readonly sql: IngestSql,
    private readonly source: string | null,
    now: Date,
  ) {
    this.now = sql.timestamp(now);
    this.seenAt = source === null ? null : this.now;
    this.perStatement = idsPerStatement(sql);
  }

  /**
   * replace: every asset and every list deleted (the relations and findings first); answers how
   * many assets.
   */
  async deleteAll(): Promise<number> {
    await this.sql.run('DELETE FROM services');
    await this.sql.run('DELETE FROM asset_identifiers');
    await this.sql.run('DELETE FROM asset_sources');
    return this.sql.run('DELETE FROM assets');
  }

  /** New assets, of origin `ingest`. */
  async insert(assets: readonly AssetRow[]): Promise<void> {
    await this.sql.insert('assets', ASSET_INSERT_COLUMNS, mapped(assets, this.row));
  }

  /** Matched assets written again (`after`): the upsert keeps what ASSET_UPSERT says. */
  async upsert(updates: readonly { after: AssetRow }[]): Promise<void> {
    await this.sql.insert(
      'assets',
      ASSET_INSERT_COLUMNS,
      mapped(updates, (update) => this.row(update.after)),
      ASSET_UPSERT,
    );
  }

  /** An asset's row in ASSET_INSERT_COLUMNS' order. */
  private readonly row = (asset: AssetRow): unknown[] => [
    asset.id,
    ...ASSET_FIELDS.map((field) => asset[field]),
    asset.source,
    'ingest',
    this.seenAt,
    this.seenAt,
    this.now,
    this.now,
    ...LIST_COLUMNS.map((column) => asset[column]),
  ];

  /** Unchanged assets seen again: their last_seen_at moves, in one statement per idsPerStatement. */
  async seen(ids: readonly string[]): Promise<void> {
    for (const part of chunks(ids, this.perStatement)) {
      // Queued: waiting for its answer would leave this thread idle until the writes before it
      // are carried out.
      await this.sql.runQueued(
        `UPDATE assets SET last_seen_at = ? WHERE id IN (${placeholders(part)})`,
        [this.now, ...part],
      );
    }
  }

  /** Created assets: the payload's source their `sources`' first. */
  async sourceOfCreated(assets: readonly AssetRow[]): Promise<void> {
    const { source } = this;
    await this.sql.insert(
      'asset_sources',
      ASSET_SOURCE_INSERT_COLUMNS,
      mapped(assets, (asset) => [asset.id, source, 0]),
    );
  }

  /** Matched assets: the payload's source added to their `sources`, at the position given. */
  async sourceAdded(
    adds: readonly (readonly [assetId: string, position: number])[],
  ): Promise<void> {
    const { source } = this;
    await this.sql.insert(
      'asset_sources',
      ASSET_SOURCE_INSERT_COLUMNS,
      mapped(adds, ([assetId, position]) => [assetId, source, position]),
    );
  }

  /** The stored services of `replaced` assets deleted, then `lists` inserted. */
  async replaceServices(
    replaced: readonly string[],
    lists: ReadonlyMap<string, readonly ServiceValues[]>,
  ): Promise<void> {
    for (const part of chunks(replaced, this.perStatement)) {
      await this.sql.run(`DELETE FROM services WHERE asset_id IN (${placeholders(part)})`, part);
    }
    await this.sql.insert('services', SERVICE_INSERT_COLUMNS, listRows(lists, serviceRow));
  }

  /**
   * The identifier rows of `written` assets (created, or whose lists changed) written from
   * their lists: those of the `replaced` ones (stored assets) deleted first.
   */
  async replaceIdentifiers(
    written: readonly AssetRow[],
    replaced: readonly string[],
  ): Promise<void> {
    for (const part of chunks(replaced, this.perStatement)) {
      await this.sql.run(
        `DELETE FROM asset_identifiers WHERE asset_id IN (${placeholders(part)})`,
        part,
      );
    }
    await this.sql.insert(
      'asset_identifiers',
      ASSET_IDENTIFIER_INSERT_COLUMNS,
      identifierRowsOf(written),
    );
  }

  /** deleteStale: these assets (at most idsPerStatement) lose the payload's source. */
  async loseSource(ids: string[]): Promise<void> {
    const list = placeholders(ids);
    await this.sql.run(`DELETE FROM asset_sources WHERE source = ? AND asset_id IN (${list})`, [
      this.source,
      ...ids,
    ]);
    await this.sql.run(`UPDATE assets SET updated_at = ? WHERE id IN (${list})`, [
      this.now,
      ...ids,
    ]);
  }

  /**
   * These assets (at most idsPerStatement) locked until the commit against other writers, where
   * the transaction does not already exclude them (Dialect.lockRows).
   */
  async lock(ids: string[]): Promise<void> {
    const { lockRows } = this.sql.dialect;
    if (lockRows) {
      await this.sql.all(
        `SELECT id FROM assets WHERE id IN (${placeholders(ids)}) ${lockRows}`,
        ids,
      );
    }
  }

  /** Deletes these assets (at most idsPerStatement); their lists go by the cascade. Answers how many. */
  delete(ids: string[]): Promise<number> {
    return this.sql.run(`DELETE FROM assets WHERE id IN (${placeholders(ids)})`, ids);
  }
}
