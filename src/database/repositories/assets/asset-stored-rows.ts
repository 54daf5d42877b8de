import type { AssetOrigin } from '../../../common/field-rules/inventory-values.js';
import type { IdentifierKind } from '../../entities/asset-identifier.entity.js';
import {
  chunks,
  idsPerStatement,
  placeholders,
  selectIn,
  type IngestLookups,
} from '../../ingest-sql.js';
import type { PositionedSourceRow } from '../../tables/asset-sources.table.js';
import type { AssetRow, StoredAssetRow } from '../../tables/assets.table.js';
import type { ServiceRow } from '../../tables/services.table.js';
import type { VulnerabilityRow } from '../../tables/findings.table.js';
import {
  ALIASED_ASSETS_SELECT,
  MATCHED_ASSETS_SELECT,
  identifiedAssetsSelect,
  POSITIONED_SOURCES_SELECT,
  SERVICES_SELECT,
  VULNERABILITIES_SELECT,
} from './asset-selects.js';

/** A stored asset as a merge matches it: 1 in `seen` when a source has named it. */
export type MatchedAssetRow = AssetRow & { seen: number };

/** A stored asset as a merge matches it, found by the id of an asset merged into it (`alias`). */
export type AliasedAssetRow = MatchedAssetRow & { alias: string };

/** An id merged into another asset (`alias`), and the id of the asset it names (`id`). */
export interface AliasTarget {
  alias: string;
  id: string;
}

/** A stored asset as a merge matches it, found by one of its identifiers. */
export type IdentifiedAssetRow = MatchedAssetRow & {
  identifier: string;
  created_at: StoredAssetRow['created_at'];
};

/** A stored asset deleteStale may delete, with how many feeds its `sources` hold. */
export interface StaleAssetRow {
  id: string;
  origin: AssetOrigin;
  sourceCount: number;
}

/** An asset's id and name, as change lists show it. */
export interface AssetName {
  id: string;
  name: string;
}

/**
 * The ingestion's reads of assets and their lists, on its lookups' connection (the match
 * stage), or on its transaction (what its change records show of the assets it deletes). Lists
 * of values are bound `IN (...)`, idsPerStatement to a statement.
 */
export class AssetStoredRows {
  constructor(private readonly db: IngestLookups) {}

  /** The assets of these ids, as a merge matches them. */
  byId(ids: readonly string[]): Promise<MatchedAssetRow[]> {
    return selectIn(this.db, MATCHED_ASSETS_SELECT, 'id', ids);
  }

  /**
   * The assets that assets of these ids were merged into (asset_aliases), as a merge matches
   * them, each with the merged id it was found by.
   */
  byAlias(ids: readonly string[]): Promise<AliasedAssetRow[]> {
    return selectIn(this.db, ALIASED_ASSETS_SELECT, 'al.alias_id', ids);
  }

  /**
   * The assets holding identifiers of `kind` among `values` (asset_identifiers' values), as a
   * merge matches them, with the identifier each row was found by and when the asset was
   * created: through the (kind, value) index.
   */
  byIdentifiers(kind: IdentifierKind, values: readonly string[]): Promise<IdentifiedAssetRow[]> {
    return selectIn(this.db, identifiedAssetsSelect(kind), 'i.value', values);
  }

  /** Whole rows (`SELECT *`) of these assets. */
  rows(ids: readonly string[]): Promise<StoredAssetRow[]> {
    return selectIn(this.db, 'SELECT * FROM assets', 'id', ids);
  }

  /** Which of these ids are stored. */
  async existingIds(ids: readonly string[]): Promise<string[]> {
    const rows = await selectIn<{ id: string }>(this.db, 'SELECT id FROM assets', 'id', ids);
    return rows.map((row) => row.id);
  }

  /** Which of these ids were merged into another asset (asset_aliases), and into which. */
  aliasTargets(ids: readonly string[]): Promise<AliasTarget[]> {
    return selectIn(
      this.db,
      'SELECT alias_id AS alias, asset_id AS id FROM asset_aliases',
      'alias_id',
      ids,
    );
  }

  /** Every stored asset's id. */
  allIds(): Promise<{ id: string }[]> {
    return this.db.all<{ id: string }>('SELECT id FROM assets');
  }

  /** The ids of the assets whose `sources` hold `source` (through the index on source). */
  idsWithSource(source: string): Promise<{ id: string }[]> {
    return this.db.all<{ id: string }>(
      'SELECT asset_id AS id FROM asset_sources WHERE source = ?',
      [source],
    );
  }

  /** These assets with their origin and how many feeds their `sources` hold. */
  stale(ids: readonly string[]): Promise<StaleAssetRow[]> {
    return selectIn(
      this.db,
      'SELECT a.id, a.origin, (SELECT CAST(COUNT(*) AS INTEGER) FROM asset_sources o WHERE o.asset_id = a.id) AS "sourceCount" FROM assets a',
      'a.id',
      ids,
    );
  }

  /** `{id, name}` of these assets, in no order. */
  names(ids: readonly string[]): Promise<AssetName[]> {
    return selectIn(this.db, 'SELECT id, name FROM assets', 'id', ids);
  }

  /** `{id, name}` of the first `limit` assets in id order. */
  firstNames(limit: number): Promise<AssetName[]> {
    return this.db.all<AssetName>(
      `SELECT id, name FROM assets ORDER BY ${this.db.idOrder} LIMIT ${limit}`,
    );
  }

  /** How many assets are stored. */
  async count(): Promise<number> {
    const [row] = await this.db.all<{ count: number }>(
      'SELECT CAST(COUNT(*) AS INTEGER) AS count FROM assets',
    );
    return Number(row.count);
  }

  /** The vulnerabilities of these assets, in no order. */
  vulnerabilities(assetIds: readonly string[]): Promise<VulnerabilityRow[]> {
    return selectIn(this.db, VULNERABILITIES_SELECT, 'asset_id', assetIds);
  }

  /** The services of these assets, in no order. */
  services(assetIds: readonly string[]): Promise<ServiceRow[]> {
    return selectIn(this.db, SERVICES_SELECT, 'asset_id', assetIds);
  }

  /**
   * Which of these assets' `sources` hold `source`: a repeated feed's assets mostly do, and
   * need no more of their sources read.
   */
  async holding(source: string, assetIds: readonly string[]): Promise<string[]> {
    const held: string[] = [];
    // Found by the key (asset, source): on SQLite, which plans without statistics, the index
    // on the source alone would read every asset of the feed for each statement.
    const bySource = this.db.dialect.unindexed('source');
    for (const part of chunks(assetIds, idsPerStatement(this.db) - 1)) {
      const rows = await this.db.arrays(
        `SELECT asset_id FROM asset_sources WHERE ${bySource} = ? AND asset_id IN (${placeholders(part)})`,
        [source, ...part],
      );
      for (const [id] of rows) held.push(id as string);
    }
    return held;
  }

  /** The `sources` of these assets, by asset then position. */
  sources(assetIds: readonly string[]): Promise<PositionedSourceRow[]> {
    return selectIn(
      this.db,
      POSITIONED_SOURCES_SELECT,
      'asset_id',
      assetIds,
      'ORDER BY asset_id, position',
    );
  }

  /** The `sources` of these assets, in no order. */
  unorderedSources(assetIds: readonly string[]): Promise<PositionedSourceRow[]> {
    return selectIn(this.db, POSITIONED_SOURCES_SELECT, 'asset_id', assetIds);
  }
}
