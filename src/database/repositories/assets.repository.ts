import { Injectable } from '@nestjs/common';
import type { AssetSortField } from '../../common/field-rules/inventory-values.js';
import type { ServiceValues } from '../../common/field-rules/service-list.js';
import { InjectDataSource } from '@nestjs/typeorm';
import { In, type EntityManager } from 'typeorm';
import { AppDataSource } from '../app-data-source.js';
import { Dialect, type AssetSearchIndex } from '../dialect/dialect.js';
import { Asset } from '../entities/asset.entity.js';
import { Service } from '../entities/service.entity.js';
import { AssetIdentifier } from '../entities/asset-identifier.entity.js';
import { AssetAlias } from '../entities/asset-alias.entity.js';
import { AssetSource } from '../entities/asset-source.entity.js';
import { identifierPairs, identityOfRow } from '../tables/asset-identifiers.table.js';
import { runNamed, type ReadOptions } from '../sql-reads.js';
import type { AssetSourceRow, PositionedSourceRow } from '../tables/asset-sources.table.js';
import { SEARCHED_COLUMNS, type StoredAssetRow } from '../tables/assets.table.js';
import type { ServiceRow } from '../tables/services.table.js';
import type { VulnerabilityRow } from '../tables/findings.table.js';
import {
  POSITIONED_SOURCES_SELECT,
  SERVICES_SELECT,
  SOURCES_SELECT,
  VULNERABILITIES_SELECT,
} from './assets/asset-selects.js';
import { walksSortIndex } from './assets/asset-search-plan.js';

const SORT_COLUMNS: Record<AssetSortField, string> = {
  name: 'name',
  ip: 'ip',
  type: 'type',
  vendor: 'vendor',
  site: 'site',
  risk_score: 'risk_score',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
};
// Sort columns that are never null: the cursor's condition is a row comparison, which both
// databases answer from the (created_at, id) index in the default order.
const REQUIRED_SORT_COLUMNS = new Set(['name', 'created_at', 'updated_at']);
const TIMESTAMP_COLUMNS = new Set(['created_at', 'updated_at']);

// The list is the hottest read: its queries are written out rather than built by TypeORM,
// whose query building costs more than running them.
const COUNT_ASSETS = 'SELECT COUNT(*) AS total FROM assets';
const SELECT_ASSET = 'SELECT * FROM assets WHERE id = :id';
// A merge's reads and writes (at most a target and 100 merged assets: one IN list each).
const SELECT_ASSETS_IN = 'SELECT * FROM assets WHERE id IN (:...ids)';
const SELECT_SERVICES_IN = `${SERVICES_SELECT} WHERE asset_id IN (:...ids) ORDER BY asset_id, port, protocol`;
const SELECT_SOURCES_IN = `${POSITIONED_SOURCES_SELECT} WHERE asset_id IN (:...ids) ORDER BY asset_id, position`;
const REPOINT_ALIASES = 'UPDATE asset_aliases SET asset_id = :target WHERE asset_id IN (:...ids)';
// An asset stored under an alias's id takes it over when merged.
const DROP_ALIASES = 'DELETE FROM asset_aliases WHERE alias_id IN (:...ids)';
// Ids bound by one lookup: well within the parameters either database takes in a statement.
const IDS_PER_LOOKUP = 10_000;
// Reads by asset ids, in the list form of the database (Dialect.inList): on PostgreSQL the text
// is the same whatever the number of ids, and is prepared once.
const byAssetIds = (dialect: Dialect) => ({
  assets: `SELECT * FROM assets WHERE ${dialect.inList('id', 'assetIds')}`,
  vulnerabilities: `${VULNERABILITIES_SELECT} WHERE ${dialect.inList('asset_id', 'assetIds')} ORDER BY asset_id, id`,
  services: `${SERVICES_SELECT} WHERE ${dialect.inList('asset_id', 'assetIds')} ORDER BY asset_id, port, protocol`,
  sources: `${SOURCES_SELECT} WHERE ${dialect.inList('asset_id', 'assetIds')} ORDER BY asset_id, position`,
});
// A probe of asset_sources' primary key per asset, keeping the page's index order. Driving from
// the index on source instead (IN) is faster for a feed that reports few assets but, without
// statistics, SQLite then looks up and sorts every asset of a feed that reports most of them.
const HAS_SOURCE =
  'EXISTS (SELECT 1 FROM asset_sources s WHERE s.asset_id = assets.id AND s.source = :source)';
// Likewise a probe per asset, of the services index on (port, asset_id) or (name, asset_id);
// PostgreSQL may start from those indexes instead.
const HAS_PORT =
  'EXISTS (SELECT 1 FROM services s WHERE s.asset_id = assets.id AND s.port = :port)';
const HAS_SERVICE =
  'EXISTS (SELECT 1 FROM services s WHERE s.asset_id = assets.id AND s.name = :service)';
// The identity filters: the assets holding a value, or an address in a range of keys, found
// through the (kind, value) index of asset_identifiers; the planner may drive the page from it
// (few matches) or walk the page's order probing the list it makes (many).
const HAS_ADDRESS_IN =
  "assets.id IN (SELECT i.asset_id FROM asset_identifiers i WHERE i.kind = 'ip' AND i.value BETWEEN :cidrLow AND :cidrHigh)";
const HAS_MAC =
  "assets.id IN (SELECT i.asset_id FROM asset_identifiers i WHERE i.kind = 'mac' AND i.value = :mac)";
const HAS_HOSTNAME =
  "assets.id IN (SELECT i.asset_id FROM asset_identifiers i WHERE i.kind = 'host' AND i.value = :hostname)";
// One condition per tag asked, each through the same index: an asset must hold them all.
const hasTag = (parameter: string) =>
  `assets.id IN (SELECT i.asset_id FROM asset_identifiers i WHERE i.kind = 'tag' AND i.value = :${parameter})`;
// Rows of one multi-row insert: 6 values each, well within either database's parameter limit.
const SERVICES_PER_INSERT = 1000;

/** `%term%` for LIKE, with the term's own wildcards escaped. */
function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/**
 * The condition of `search` (a case-insensitive substring of a searched column), with its
 * :named parameters: LOWER(column) LIKE '%term%', which PostgreSQL answers from its trigram
 * index. Where the search's index is a table of its own (SQLite), a term long enough is a
 * phrase of that index instead (unless `indexed` is false): it matches exactly where those
 * LIKEs do, by index.
 */
export function searchCondition(
  dialect: Dialect,
  search: string,
  { indexed = true }: { indexed?: boolean } = {},
): { condition: string; parameters: Record<string, string> } {
  const term = search.toLowerCase();
  const index = indexed ? dialect.searchIndex() : null;
  if (index !== null && [...term].length >= index.minTermLength)
    return { condition: index.condition, parameters: { phrase: index.phrase(term) } };
  const matches = SEARCHED_COLUMNS.map((column) => `LOWER(${column}) LIKE :pattern ESCAPE '\\'`);
  return { condition: `(${matches.join(' OR ')})`, parameters: { pattern: containsPattern(term) } };
}

/** The list's order by `column`: missing values last either way; id makes the order total. */
function orderBy(column: string, descending: boolean): string {
  return `${column} ${descending ? 'DESC' : 'ASC'} NULLS LAST, id ASC`;
}

/**
 * The condition that rows start after the asset `after` names, in the list's order by
 * `column`, with its :afterKey and :afterId.
 */
function startingAfter(
  column: string,
  descending: boolean,
  { key, id }: AssetKey,
): { condition: string; parameters: Record<string, unknown> } {
  return {
    condition: afterCondition(column, descending, key),
    parameters: {
      afterKey: column === 'risk_score' && key !== null ? Number(key) : key,
      afterId: id,
    },
  };
}

/**
 * The page's condition that it starts after the cursor's asset, in the list's order (`column`
 * either way, nulls last; then id): on :afterKey and :afterId.
 */
function afterCondition(column: string, descending: boolean, key: string | null): string {
  if (REQUIRED_SORT_COLUMNS.has(column) && !descending)
    return `(${column}, id) > (:afterKey, :afterId)`;
  const tie = `id > :afterId`;
  if (key === null) return `(${column} IS NULL AND ${tie})`;
  const beyond = descending ? '<' : '>';
  const nulls = REQUIRED_SORT_COLUMNS.has(column) ? '' : ` OR ${column} IS NULL`;
  return `(${column} ${beyond} :afterKey OR (${column} = :afterKey AND ${tie})${nulls})`;
}

/** An asset's place in an order: its sort key (as text, null when missing) and id. */
export interface AssetKey {
  key: string | null;
  id: string;
}

/** The list's filters: each given narrows it. */
export interface AssetFilters {
  type?: string;
  site?: string;
  /** A feed its `sources` hold. */
  source?: string;
  /** A port of one of its services. */
  port?: number;
  /** The name of one of its services. */
  service?: string;
  /** The first and last keys of a prefix's addresses (prefixKeyRange). */
  cidr?: { low: string; high: string };
  /** A MAC address it holds, normalized. */
  mac?: string;
  /** A host name it holds, normalized. */
  hostname?: string;
  /** Tags it holds, every one of them. */
  tags?: readonly string[];
  /** A case-insensitive substring of a searched column (searchCondition). */
  search?: string;
}

/** Rows of the list in its order: its filters, the asset they start after, how many. */
export interface AssetBatchQuery extends AssetFilters {
  sort: AssetSortField;
  descending: boolean;
  /** The asset the rows start after. */
  after?: AssetKey;
  /** Rows to read. */
  limit: number;
}

/** A page of the list as asked: a batch, and how many rows it skips. */
export interface AssetPageQuery extends AssetBatchQuery {
  offset: number;
}

/** An asset of a page, with its sort key as exact text (Dialect.sortKeyText), for a cursor. */
export type PagedAssetRow = StoredAssetRow & { sort_key: string | null };

/** Stored assets' rows, with the rows of their lists, each in the order the API shows them. */
export interface AssetsWithLists {
  rows: StoredAssetRow[];
  vulnerabilities: VulnerabilityRow[];
  services: ServiceRow[];
  sources: AssetSourceRow[];
}

/** A service of an asset as the API takes it: its optional values may be left out. */
export type ServiceEntry = Pick<ServiceValues, 'port' | 'protocol'> &
  Partial<Omit<ServiceValues, 'port' | 'protocol'>>;

/** The list's total, and for a search alone on SQLite the assets in all. */
interface Counted {
  total: string | number;
  assets?: number;
}

/**
 * Every query over the assets and their lists (services, vulnerabilities, sources) that the
 * API's routes make: the list, the reads by id, the writes (each in the unit of the
 * InventoryWriter whose manager it is given).
 */
@Injectable()
export class AssetsRepository {
  private readonly byAssetIds: ReturnType<typeof byAssetIds>;
  private readonly searchIndex: AssetSearchIndex | null;

  constructor(
    @InjectDataSource() private readonly dataSource: AppDataSource,
    private readonly dialect: Dialect,
  ) {
    this.byAssetIds = byAssetIds(dialect);
    this.searchIndex = dialect.searchIndex();
  }

  /**
   * A page of the list and the filtered total: in two queries whatever the page size (a search
   * on SQLite fills and empties its matches' table besides).
   */
  async page(query: AssetPageQuery): Promise<{ total: number; rows: PagedAssetRow[] }> {
    const { conditions, parameters } = this.filtered(query, true);
    const where = conditions.length > 0 ? ` WHERE ${conditions.join(' AND ')}` : '';

    const { descending } = query;
    const column = SORT_COLUMNS[query.sort];
    const order = orderBy(column, descending);

    let after: string | undefined;
    if (query.after !== undefined) {
      const start = startingAfter(column, descending, query.after);
      after = start.condition;
      Object.assign(parameters, start.parameters);
    }
    // Through the search's own index (SQLite), a search's matches are found once, then counted
    // and probed.
    const index = this.searchIndex;
    const phrase =
      index !== null && conditions.includes(index.condition)
        ? (parameters.phrase as string)
        : undefined;
    const matched = (condition: string): string =>
      condition === index?.condition ? index.matched : condition;
    const countSql =
      where === ''
        ? this.dialect.countedAssets
        : phrase === undefined
          ? COUNT_ASSETS + where
          : conditions.length === 1
            ? index!.countMatched
            : `${COUNT_ASSETS} WHERE ${conditions.map(matched).join(' AND ')}`;
    const pageSql = (counted: Counted): string => {
      // A search alone, in the order of the (created_at, id) index: the index may serve the page.
      const walk =
        counted.assets !== undefined &&
        column === 'created_at' &&
        !descending &&
        walksSortIndex({
          matches: Number(counted.total),
          assets: Number(counted.assets),
          skip: query.offset,
          take: query.limit,
        });
      const pageConditions = conditions.map((condition) =>
        condition !== index?.condition ? condition : walk ? index.matchedProbed : index.matched,
      );
      if (after !== undefined) pageConditions.push(after);
      const pageWhere = pageConditions.length > 0 ? ` WHERE ${pageConditions.join(' AND ')}` : '';
      return `SELECT *, ${this.sortKey(column)} AS sort_key FROM assets${pageWhere} ORDER BY ${order} LIMIT :limit OFFSET :offset`;
    };
    const pageParameters = { ...parameters, limit: query.limit, offset: query.offset };

    let counted: Counted;
    let rows: PagedAssetRow[];
    if (phrase === undefined) {
      [counted] = await this.run<Counted>(countSql, parameters, this.dataSource.manager, {
        prepared: where === '' ? 'asset-count' : undefined,
      });
      rows = await this.run(pageSql(counted), pageParameters, this.dataSource.manager, {
        timestampsAsText: true,
      });
    } else {
      ({ counted, rows } = index!.within(phrase, (all) => {
        const [count] = all<Counted>(countSql, parameters);
        return { counted: count, rows: all(pageSql(count), pageParameters) };
      }));
    }
    return { total: Number(counted.total), rows };
  }

  /**
   * The next rows of an export: the list's filters and order, from after `query.after`, without
   * a total. A search is by its LIKE condition rather than by the search's own table: each batch
   * then walks on from where the one before stopped, rather than finding every match again.
   */
  batch(query: AssetBatchQuery): Promise<PagedAssetRow[]> {
    const { conditions, parameters } = this.filtered(query, false);
    const column = SORT_COLUMNS[query.sort];
    if (query.after !== undefined) {
      const start = startingAfter(column, query.descending, query.after);
      conditions.push(start.condition);
      Object.assign(parameters, start.parameters);
    }
    const where = conditions.length > 0 ? ` WHERE ${conditions.join(' AND ')}` : '';
    return this.run(
      `SELECT *, ${this.sortKey(column)} AS sort_key FROM assets${where} ORDER BY ${orderBy(column, query.descending)} LIMIT :limit`,
      { ...parameters, limit: query.limit },
      this.dataSource.manager,
      { timestampsAsText: true },
    );
  }

  /** The conditions of the filters given, with their :named parameters (searchCondition's `indexed`). */
  private filtered(
    filters: AssetFilters,
    indexed: boolean,
  ): { conditions: string[]; parameters: Record<string, unknown> } {
    const conditions: string[] = [];
    const parameters: Record<string, unknown> = {};
    const filter = (condition: string, values: Record<string, unknown>) => {
      conditions.push(condition);
      Object.assign(parameters, values);
    };
    const { type, site, source, port, service, cidr, mac, hostname, tags, search } = filters;
    if (type !== undefined) filter('type = :type', { type });
    if (site !== undefined) filter('site = :site', { site });
    if (source !== undefined) filter(HAS_SOURCE, { source });
    if (port !== undefined) filter(HAS_PORT, { port });
    if (service !== undefined) filter(HAS_SERVICE, { service });
    if (cidr !== undefined) filter(HAS_ADDRESS_IN, { cidrLow: cidr.low, cidrHigh: cidr.high });
    if (mac !== undefined) filter(HAS_MAC, { mac });
    if (hostname !== undefined) filter(HAS_HOSTNAME, { hostname });
    // A tag asked twice is one condition.
    for (const [index, tag] of [...new Set(tags)].entries())
      filter(hasTag(`tag${index}`), { [`tag${index}`]: tag });
    if (search) {
      const found = searchCondition(this.dialect, search, { indexed });
      filter(found.condition, found.parameters);
    }
    return { conditions, parameters };
  }

  /**
   * The sort key as text for the cursor, exact: PostgreSQL's timestamps to the microsecond, in
   * UTC with the offset said, whatever the session's DateStyle and TimeZone.
   */
  private sortKey(column: string): string {
    return this.dialect.sortKeyText(column, TIMESTAMP_COLUMNS.has(column));
  }

  /**
   * The assets of these ids that are stored, with their lists, in no order: a part per slice
   * of the ids, so that any number fits a statement.
   */
  async byIds(ids: readonly string[]): Promise<AssetsWithLists[]> {
    const parts: AssetsWithLists[] = [];
    for (let start = 0; start < ids.length; start += IDS_PER_LOOKUP) {
      const slice = ids.slice(start, start + IDS_PER_LOOKUP);
      const rows = await this.run<StoredAssetRow>(
        this.byAssetIds.assets,
        { assetIds: slice },
        this.dataSource.manager,
        { prepared: 'assets-by-id', timestampsAsText: true },
      );
      parts.push(await this.withLists(rows));
    }
    return parts;
  }

  /** Whether an asset with this id is stored. */
  exists(id: string): Promise<boolean> {
    return this.dataSource.manager.existsBy(Asset, { id });
  }

  /** The asset's row, as `manager` (a write unit's, or the service's own) sees it, if any. */
  async find(id: string, manager = this.dataSource.manager): Promise<StoredAssetRow | null> {
    const [row] = await this.run<StoredAssetRow>(SELECT_ASSET, { id }, manager, {
      prepared: 'asset',
      timestampsAsText: true,
    });
    return row ?? null;
  }

  /**
   * Stored rows with their vulnerabilities, services and sources, read in one query each
   * whatever the number of rows (side by side: on PostgreSQL, on connections of the pool).
   * Without `vulnerabilities`, their list is left empty, unread (a CSV export shows none).
   */
  async withLists(
    rows: StoredAssetRow[],
    manager = this.dataSource.manager,
    { vulnerabilities: withVulnerabilities = true }: { vulnerabilities?: boolean } = {},
  ): Promise<AssetsWithLists> {
    if (rows.length === 0) return { rows, vulnerabilities: [], services: [], sources: [] };
    const assetIds = rows.map((row) => row.id);
    const [vulnerabilities, services, sources] = await Promise.all([
      withVulnerabilities
        ? this.run<VulnerabilityRow>(this.byAssetIds.vulnerabilities, { assetIds }, manager, {
            prepared: 'asset-vulnerabilities',
          })
        : [],
      this.run<ServiceRow>(this.byAssetIds.services, { assetIds }, manager, {
        prepared: 'asset-services',
      }),
      this.run<AssetSourceRow>(this.byAssetIds.sources, { assetIds }, manager, {
        prepared: 'asset-sources',
      }),
    ]);
    return { rows, vulnerabilities, services, sources };
  }

  /** Inserts the asset and its services, in the unit of `manager`. */
  async insert(
    manager: EntityManager,
    asset: Asset,
    services: readonly ServiceEntry[],
  ): Promise<void> {
    await manager.getRepository(Asset).insert(asset);
    await this.insertServices(manager, asset.id, services);
  }

  /** Changes the asset's columns `changes` names, in the unit of `manager`. */
  async update(manager: EntityManager, id: string, changes: Partial<Asset>): Promise<void> {
    await manager.getRepository(Asset).update({ id }, changes);
  }

  /** Replaces the asset's services with `services`, in the unit of `manager`. */
  async replaceServices(
    manager: EntityManager,
    id: string,
    services: readonly ServiceEntry[],
  ): Promise<void> {
    await manager.getRepository(Service).delete({ assetId: id });
    await this.insertServices(manager, id, services);
  }

  /**
   * Deletes the asset, in the unit of `manager`: its lists and every relation touching it go
   * with it, by foreign key.
   */
  async delete(manager: EntityManager, id: string): Promise<void> {
    await manager.getRepository(Asset).delete({ id });
  }

  /**
   * Writes the asset's identifier rows again from the lists its row holds, in the unit of
   * `manager`: after any write of its addresses, MAC addresses, host names or tags.
   */
  async replaceIdentifiers(manager: EntityManager, id: string): Promise<void> {
    const row = await this.find(id, manager);
    await manager.getRepository(AssetIdentifier).delete({ assetId: id });
    if (row === null) return;
    const rows = identifierPairs(identityOfRow(row)).map(([kind, value]) => ({
      assetId: id,
      kind,
      value,
    }));
    if (rows.length === 0) return;
    const [sql, values] = this.dataSource
      .createQueryBuilder()
      .insert()
      .into(AssetIdentifier)
      .values(rows)
      .getQueryAndParameters();
    await manager.query(sql, values);
  }

  /**
   * The rows of these assets (a merge's target and merged assets), their services and their
   * `sources` with positions, as `manager` (the merge's unit) sees them, in no order of assets.
   */
  async forMerge(
    manager: EntityManager,
    ids: readonly string[],
  ): Promise<{ rows: StoredAssetRow[]; services: ServiceRow[]; sources: PositionedSourceRow[] }> {
    const rows = await this.run<StoredAssetRow>(SELECT_ASSETS_IN, { ids }, manager, {
      timestampsAsText: true,
    });
    const found = rows.map((row) => row.id);
    if (found.length === 0) return { rows, services: [], sources: [] };
    const services = await this.run<ServiceRow>(SELECT_SERVICES_IN, { ids: found }, manager);
    const sources = await this.run<PositionedSourceRow>(SELECT_SOURCES_IN, { ids: found }, manager);
    return { rows, services, sources };
  }

  /** Appends these feeds to the asset's `sources`, from `position` on, in the unit of `manager`. */
  async appendSources(
    manager: EntityManager,
    id: string,
    sources: readonly string[],
    position: number,
  ): Promise<void> {
    if (sources.length === 0) return;
    await manager
      .getRepository(AssetSource)
      .insert(
        sources.map((source, index) => ({ assetId: id, source, position: position + index })),
      );
  }

  /**
   * After a merge into `target`: the merged ids become its aliases, and the aliases of the
   * merged assets (merged into them before) move to it, in the unit of `manager`. Before the
   * merged assets are deleted, which would take their aliases with them.
   */
  async addAliases(
    manager: EntityManager,
    target: string,
    merged: readonly string[],
  ): Promise<void> {
    await runNamed(manager, REPOINT_ALIASES, { target, ids: merged });
    await runNamed(manager, DROP_ALIASES, { ids: merged });
    await manager
      .getRepository(AssetAlias)
      .insert(merged.map((aliasId) => ({ aliasId, assetId: target })));
  }

  /**
   * Deletes these assets, in the unit of `manager`: their lists and every relation touching
   * them go with them, by foreign key.
   */
  async deleteMany(manager: EntityManager, ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await manager.getRepository(Asset).delete({ id: In([...ids]) });
  }

  /** Inserts an asset's services (a validated list), many rows to each statement. */
  private async insertServices(
    manager: EntityManager,
    assetId: string,
    services: readonly ServiceEntry[],
  ): Promise<void> {
    for (let start = 0; start < services.length; start += SERVICES_PER_INSERT) {
      const rows = services.slice(start, start + SERVICES_PER_INSERT).map((service) => ({
        assetId,
        port: service.port,
        protocol: service.protocol,
        name: service.name ?? null,
        product: service.product ?? null,
        version: service.version ?? null,
      }));
      const [sql, values] = this.dataSource
        .createQueryBuilder()
        .insert()
        .into(Service)
        .values(rows)
        .getQueryAndParameters();
      await manager.query(sql, values);
    }
  }

  /** runNamed, through the data source's own manager unless a unit's is given. */
  private run<T>(
    sql: string,
    parameters: Record<string, unknown>,
    manager: EntityManager,
    options?: ReadOptions,
  ): Promise<T[]> {
    return runNamed<T>(manager, sql, parameters, options);
  }
}
