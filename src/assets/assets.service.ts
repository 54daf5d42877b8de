import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { Repository, type EntityManager, type QueryDeepPartialEntity } from 'typeorm';
import { type ChangeInput, type ChangeOrigin } from '../database/history/change-origin.js';
import { InventoryWriter } from '../database/writer/inventory-writer.js';
import { NotFoundError } from '../common/errors/not-found.error.js';
import { toRelationResponse } from '../relations/dto/relation-response.dto.js';
import { Relation } from '../database/entities/relation.entity.js';
import { AppDataSource } from '../database/app-data-source.js';
import { Dialect, type AssetSearchIndex } from '../database/dialect/dialect.js';
import { runNamed, type ReadOptions } from '../database/sql-reads.js';
import type { AssetSourceRow, ServiceRow, StoredAssetRow, VulnerabilityRow } from './asset-rows.js';
import { Asset } from '../database/entities/asset.entity.js';
import type { AssetListResponse } from './dto/asset-list-response.dto.js';
import { decodeCursor, encodeCursor } from './asset-cursor.js';
import { walksSortIndex } from './asset-search-plan.js';
import { toAssetResponse, type AssetResponse } from './dto/asset-response.dto.js';
import type { CreateAssetDto } from './dto/create-asset.dto.js';
import type { AssetSortField, ListAssetsQueryDto } from './dto/list-assets-query.dto.js';
import type { ServiceInput } from './dto/service-input.dto.js';
import { toServiceResponse } from './dto/service-response.dto.js';
import type { UpdateAssetDto } from './dto/update-asset.dto.js';
import { toVulnerabilityResponse } from './dto/vulnerability-response.dto.js';
import { Service } from '../database/entities/service.entity.js';
import { v7 as uuidv7 } from 'uuid';

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
const SEARCHED_COLUMNS = ['name', 'ip', 'vendor', 'model', 'site', 'type', 'os_version'];
// Sort columns that are never null: the cursor's condition is a row comparison, which both
// databases answer from the (created_at, id) index in the default order.
const REQUIRED_SORT_COLUMNS = new Set(['name', 'created_at', 'updated_at']);
const TIMESTAMP_COLUMNS = new Set(['created_at', 'updated_at']);

// The list is the hottest read: its queries are written out rather than built by TypeORM,
// whose query building costs more than running them.
const COUNT_ASSETS = 'SELECT COUNT(*) AS total FROM assets';
const SELECT_ASSET = 'SELECT * FROM assets WHERE id = :id';
// Ids bound by one lookup: well within the parameters either database takes in a statement.
const IDS_PER_LOOKUP = 10_000;
// Reads by asset ids, in the list form of the database (Dialect.inList): on PostgreSQL the text
// is the same whatever the number of ids, and is prepared once.
const byAssetIds = (dialect: Dialect) => ({
  assets: `SELECT * FROM assets WHERE ${dialect.inList('id', 'assetIds')}`,
  vulnerabilities: `SELECT asset_id, id, score, summary, CAST(published_date AS TEXT) AS published_date
  FROM vulnerabilities WHERE ${dialect.inList('asset_id', 'assetIds')} ORDER BY asset_id, id`,
  services: `SELECT asset_id, port, protocol, name, product, version
  FROM services WHERE ${dialect.inList('asset_id', 'assetIds')} ORDER BY asset_id, port, protocol`,
  sources: `SELECT asset_id, source FROM asset_sources
  WHERE ${dialect.inList('asset_id', 'assetIds')} ORDER BY asset_id, position`,
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
// Rows of one multi-row insert: 6 values each, well within either database's parameter limit.
const SERVICES_PER_INSERT = 1000;

const assetNotFound = (id: string) => new NotFoundError(`asset ${id} not found`);

/** `%term%` for LIKE, with the term's own wildcards escaped. */
function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/**
 * The condition of `search` (a case-insensitive substring of a searched column), with its
 * :named parameters: LOWER(column) LIKE '%term%', which PostgreSQL answers from its trigram
 * index. Where the search's index is a table of its own (SQLite), a term long enough is a
 * phrase of that index instead: it matches exactly where those LIKEs do, by index.
 */
export function searchCondition(
  dialect: Dialect,
  search: string,
): { condition: string; parameters: Record<string, string> } {
  const term = search.toLowerCase();
  const index = dialect.searchIndex();
  if (index !== null && [...term].length >= index.minTermLength)
    return { condition: index.condition, parameters: { phrase: index.phrase(term) } };
  const matches = SEARCHED_COLUMNS.map((column) => `LOWER(${column}) LIKE :pattern ESCAPE '\\'`);
  return { condition: `(${matches.join(' OR ')})`, parameters: { pattern: containsPattern(term) } };
}

/**
 * The page's condition that it starts after the cursor's asset, in the list's order (`column`
 * ascending nulls last, or descending nulls first; then id): on :afterKey and :afterId.
 */
function afterCondition(column: string, descending: boolean, key: string | null): string {
  if (REQUIRED_SORT_COLUMNS.has(column) && !descending)
    return `(${column}, id) > (:afterKey, :afterId)`;
  const tie = `id > :afterId`;
  if (key === null)
    return descending
      ? `((${column} IS NULL AND ${tie}) OR ${column} IS NOT NULL)`
      : `(${column} IS NULL AND ${tie})`;
  return descending
    ? `(${column} < :afterKey OR (${column} = :afterKey AND ${tie}))`
    : `(${column} > :afterKey OR (${column} = :afterKey AND ${tie}) OR ${column} IS NULL)`;
}

@Injectable()
export class AssetsService {
  private readonly byAssetIds: ReturnType<typeof byAssetIds>;
  private readonly searchIndex: AssetSearchIndex | null;

  constructor(
    @InjectRepository(Asset) private readonly assets: Repository<Asset>,
    @InjectDataSource() private readonly dataSource: AppDataSource,
    private readonly writer: InventoryWriter,
    private readonly dialect: Dialect,
  ) {
    this.byAssetIds = byAssetIds(dialect);
    this.searchIndex = dialect.searchIndex();
  }

  /**
   * One page, the filtered total and, when more assets follow, the cursor of the next page: in
   * five queries whatever the page size (a search on SQLite fills and empties its matches' table
   * besides).
   */
  async list(query: ListAssetsQueryDto): Promise<AssetListPage> {
    const conditions: string[] = [];
    const parameters: Record<string, unknown> = {};
    if (query.type !== undefined) {
      conditions.push('type = :type');
      parameters.type = query.type;
    }
    if (query.site !== undefined) {
      conditions.push('site = :site');
      parameters.site = query.site;
    }
    if (query.source !== undefined) {
      conditions.push(HAS_SOURCE);
      parameters.source = query.source;
    }
    if (query.port !== undefined) {
      conditions.push(HAS_PORT);
      parameters.port = query.port;
    }
    if (query.service !== undefined) {
      conditions.push(HAS_SERVICE);
      parameters.service = query.service;
    }
    if (query.search) {
      const search = searchCondition(this.dialect, query.search);
      conditions.push(search.condition);
      Object.assign(parameters, search.parameters);
    }
    const where = conditions.length > 0 ? ` WHERE ${conditions.join(' AND ')}` : '';

    const sort = query.sort ?? 'createdAt';
    const descending = sort.startsWith('-');
    const field = sort.replace(/^-/, '') as AssetSortField;
    const column = SORT_COLUMNS[field];
    // Nulls sort as the largest value on both databases; id makes the order total.
    const order = `${column} ${descending ? 'DESC NULLS FIRST' : 'ASC NULLS LAST'}, id ASC`;

    let after: string | undefined;
    if (query.after !== undefined) {
      const cursor = decodeCursor(query.after, sort, field);
      after = afterCondition(column, descending, cursor.key);
      parameters.afterKey =
        field === 'risk_score' && cursor.key !== null ? Number(cursor.key) : cursor.key;
      parameters.afterId = cursor.id;
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
          take: query.limit + 1,
        });
      const pageConditions = conditions.map((condition) =>
        condition !== index?.condition ? condition : walk ? index.matchedProbed : index.matched,
      );
      if (after !== undefined) pageConditions.push(after);
      const pageWhere = pageConditions.length > 0 ? ` WHERE ${pageConditions.join(' AND ')}` : '';
      // One row more than the page: whether another page follows.
      return `SELECT *, ${this.sortKey(column)} AS sort_key FROM assets${pageWhere} ORDER BY ${order} LIMIT :limit OFFSET :offset`;
    };
    const pageParameters = { ...parameters, limit: query.limit + 1, offset: query.offset };

    let counted: Counted;
    let rows: (StoredAssetRow & { sort_key: string | null })[];
    if (phrase === undefined) {
      [counted] = await this.run<Counted>(countSql, parameters, this.assets.manager, {
        prepared: where === '' ? 'asset-count' : undefined,
      });
      rows = await this.run(pageSql(counted), pageParameters, this.assets.manager, {
        timestampsAsText: true,
      });
    } else {
      ({ counted, rows } = index!.within(phrase, (all) => {
        const [count] = all<Counted>(countSql, parameters);
        return { counted: count, rows: all(pageSql(count), pageParameters) };
      }));
    }
    const total = Number(counted.total);
    let next: string | undefined;
    if (rows.length > query.limit) {
      rows.length = query.limit;
      const last = rows[rows.length - 1];
      next = encodeCursor({ sort, key: last.sort_key, id: last.id });
    }
    return { assets: await this.withDetails(rows), total, next };
  }

  /**
   * The sort key as text for the cursor, exact: PostgreSQL's timestamps to the microsecond, in
   * UTC with the offset said, whatever the session's DateStyle and TimeZone.
   */
  private sortKey(column: string): string {
    return this.dialect.sortKeyText(column, TIMESTAMP_COLUMNS.has(column));
  }

  get(id: string): Promise<AssetResponse> {
    return this.read(id);
  }

  /**
   * The answers for these ids, in their order, for features that find assets by other means
   * (the graph queries); unknown ids are left out. In slices, so that any number fits a statement.
   */
  async findByIds(ids: readonly string[]): Promise<AssetResponse[]> {
    const found = new Map<string, AssetResponse>();
    for (let start = 0; start < ids.length; start += IDS_PER_LOOKUP) {
      const slice = ids.slice(start, start + IDS_PER_LOOKUP);
      const rows = await this.run<StoredAssetRow>(
        this.byAssetIds.assets,
        { assetIds: slice },
        this.assets.manager,
        { prepared: 'assets-by-id', timestampsAsText: true },
      );
      for (const asset of await this.withDetails(rows)) found.set(asset.id, asset);
    }
    return ids.flatMap((id) => found.get(id) ?? []);
  }

  async create(origin: ChangeOrigin, dto: CreateAssetDto): Promise<AssetResponse> {
    const now = new Date();
    const asset = this.assets.create({
      id: uuidv7(),
      name: dto.name,
      ip: dto.ip ?? null,
      type: dto.type ?? null,
      vendor: dto.vendor ?? null,
      model: dto.model ?? null,
      riskScore: dto.risk_score ?? null,
      site: dto.site ?? null,
      osVersion: dto.os_version ?? null,
      source: null,
      origin: 'manual',
      firstSeenAt: null,
      lastSeenAt: null,
      createdAt: now,
      updatedAt: now,
    });
    // The asset, its services and the change record land together.
    return this.writer.create(origin, 'asset', async ({ manager }) => {
      await manager.getRepository(Asset).insert(asset);
      await this.runAll(manager, this.insertServices(asset.id, dto.services ?? []));
      // Read back, so that every answer comes from a stored row through the one mapper.
      return (await this.find(asset.id, manager))!;
    });
  }

  async update(origin: ChangeOrigin, id: string, dto: UpdateAssetDto): Promise<AssetResponse> {
    const changes: QueryDeepPartialEntity<Asset> = { updatedAt: new Date() };
    if (dto.name !== undefined) changes.name = dto.name;
    if (dto.ip !== undefined) changes.ip = dto.ip;
    if (dto.type !== undefined) changes.type = dto.type;
    if (dto.vendor !== undefined) changes.vendor = dto.vendor;
    if (dto.model !== undefined) changes.model = dto.model;
    if (dto.risk_score !== undefined) changes.riskScore = dto.risk_score;
    if (dto.site !== undefined) changes.site = dto.site;
    if (dto.os_version !== undefined) changes.osVersion = dto.os_version;
    const updated = await this.writer.update(
      origin,
      'asset',
      id,
      ({ manager }) => this.find(id, manager),
      async ({ manager }) => {
        await manager.getRepository(Asset).update({ id }, changes);
        // Present, the list replaces the stored one: both land with the asset's update, or neither.
        if (dto.services !== undefined) {
          await manager.getRepository(Service).delete({ assetId: id });
          await this.runAll(manager, this.insertServices(id, dto.services));
        }
      },
    );
    if (updated === null) throw assetNotFound(id);
    return updated;
  }

  /** Its vulnerabilities and every relation touching it go with it, by foreign key. */
  async remove(origin: ChangeOrigin, id: string): Promise<void> {
    const removed = await this.writer.remove(
      origin,
      'asset',
      id,
      ({ manager }) => this.find(id, manager),
      async (unit) => {
        const { manager } = unit;
        // Read first, so that the relations the cascade deletes are recorded too.
        const relations = unit.recording
          ? await manager
              .getRepository(Relation)
              .find({ where: [{ sourceAssetId: id }, { targetAssetId: id }], order: { id: 'ASC' } })
          : [];
        await manager.getRepository(Asset).delete({ id });
        unit.record(
          ...relations.map((relation): ChangeInput => ({
            action: 'delete',
            objectType: 'relation',
            objectId: relation.id,
            before: toRelationResponse(relation),
            after: null,
          })),
        );
      },
    );
    if (removed === null) throw assetNotFound(id);
  }

  /** The asset's answer; else 404. */
  private async read(id: string): Promise<AssetResponse> {
    const asset = await this.find(id);
    if (asset === null) throw assetNotFound(id);
    return asset;
  }

  /** The asset's answer, as `manager` (a transaction's, or the service's) sees it, if any. */
  private async find(id: string, manager = this.assets.manager): Promise<AssetResponse | null> {
    const [row] = await this.run<StoredAssetRow>(SELECT_ASSET, { id }, manager, {
      prepared: 'asset',
      timestampsAsText: true,
    });
    if (!row) return null;
    const [asset] = await this.withDetails([row], manager);
    return asset;
  }

  private async runAll(manager: EntityManager, statements: [string, unknown[]][]): Promise<void> {
    for (const [sql, values] of statements) await manager.query(sql, values);
  }

  /** The statements that insert an asset's services (a validated list), many rows to each. */
  private insertServices(assetId: string, services: ServiceInput[]): [string, unknown[]][] {
    const statements: [string, unknown[]][] = [];
    for (let start = 0; start < services.length; start += SERVICES_PER_INSERT) {
      const rows = services.slice(start, start + SERVICES_PER_INSERT).map((service) => ({
        assetId,
        port: service.port,
        protocol: service.protocol,
        name: service.name ?? null,
        product: service.product ?? null,
        version: service.version ?? null,
      }));
      statements.push(
        this.dataSource
          .createQueryBuilder()
          .insert()
          .into(Service)
          .values(rows)
          .getQueryAndParameters(),
      );
    }
    return statements;
  }

  /** runNamed, through the service's own manager unless a transaction's is given. */
  private run<T>(
    sql: string,
    parameters: Record<string, unknown>,
    manager = this.assets.manager,
    options?: ReadOptions,
  ): Promise<T[]> {
    return runNamed<T>(manager, sql, parameters, options);
  }

  /**
   * The answers for stored rows: their vulnerabilities, services and sources read in one query
   * each, whatever the number of rows (side by side: on PostgreSQL, on connections of the pool).
   */
  private async withDetails(
    rows: StoredAssetRow[],
    manager = this.assets.manager,
  ): Promise<AssetResponse[]> {
    if (rows.length === 0) return [];
    const assetIds = rows.map((row) => row.id);
    const [vulnerabilityRows, serviceRows, sourceRows] = await Promise.all([
      this.run<VulnerabilityRow>(this.byAssetIds.vulnerabilities, { assetIds }, manager, {
        prepared: 'asset-vulnerabilities',
      }),
      this.run<ServiceRow>(this.byAssetIds.services, { assetIds }, manager, {
        prepared: 'asset-services',
      }),
      this.run<AssetSourceRow>(this.byAssetIds.sources, { assetIds }, manager, {
        prepared: 'asset-sources',
      }),
    ]);
    const vulnerabilities = groupByAsset(vulnerabilityRows, toVulnerabilityResponse);
    const services = groupByAsset(serviceRows, toServiceResponse);
    const sources = groupByAsset(sourceRows, (row) => row.source);
    return rows.map((row) =>
      toAssetResponse(row, {
        vulnerabilities: vulnerabilities.get(row.id) ?? [],
        services: services.get(row.id) ?? [],
        sources: sources.get(row.id) ?? [],
      }),
    );
  }
}

/** The list's total, and for a search alone on SQLite the assets in all. */
interface Counted {
  total: string | number;
  assets?: number;
}

/** A page of the list, and the cursor of the page after it, if any. */
export interface AssetListPage extends AssetListResponse {
  next?: string;
}

/** Rows of several assets, mapped and grouped by asset id, in their order. */
function groupByAsset<R extends { asset_id: string }, T>(
  rows: R[],
  map: (row: R) => T,
): Map<string, T[]> {
  const byAsset = new Map<string, T[]>();
  for (const row of rows) {
    const value = map(row);
    const list = byAsset.get(row.asset_id);
    if (list) list.push(value);
    else byAsset.set(row.asset_id, [value]);
  }
  return byAsset;
}
