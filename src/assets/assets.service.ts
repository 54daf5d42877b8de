import { Injectable } from '@nestjs/common';
import { type ChangeInput, type ChangeOrigin } from '../database/history/change-origin.js';
import { RelationsRepository } from '../database/repositories/relations.repository.js';
import { assetFieldProperties } from '../database/tables/assets.table.js';
import { InventoryWriter } from '../database/writer/inventory-writer.js';
import type { WriteUnit } from '../database/writer/write-unit.js';
import { NotFoundError } from '../common/errors/not-found.error.js';
import { InvalidInputError } from '../common/errors/invalid-input.error.js';
import {
  SPACED_LISTS,
  identityText,
  identityValues,
  normalizeHostname,
  normalizeMac,
  prefixKeyRange,
  readIdentityList,
  resolveAddresses,
  type SpacedList,
} from '../common/field-rules/identity-values.js';
import { toRelationResponse } from '../relations/dto/relation-response.dto.js';
import type { Asset } from '../database/entities/asset.entity.js';
import {
  AssetsRepository,
  type AssetFilters,
  type AssetKey,
} from '../database/repositories/assets.repository.js';
import { EXPORT_BATCH_SIZE, exportText } from '../common/export/export-text.js';
import { ASSET_CSV_COLUMNS } from './asset-csv-columns.js';
import type { ExportAssetsQueryDto } from './dto/export-assets-query.dto.js';
import type { AssetListResponse } from './dto/asset-list-response.dto.js';
import { decodeCursor, encodeCursor } from './asset-cursor.js';
import { assetResponses as responses } from './asset-responses.js';
import type { AssetResponse } from './dto/asset-response.dto.js';
import type { CreateAssetDto } from './dto/create-asset.dto.js';
import type { AssetSortField } from '../common/field-rules/inventory-values.js';
import type { ListAssetsQueryDto } from './dto/list-assets-query.dto.js';

/** What the list and the export read of a query: its filters and sort. */
type AssetFiltersQuery = ListAssetsQueryDto | ExportAssetsQueryDto;
import type { UpdateAssetDto } from './dto/update-asset.dto.js';
import { timeOrderedId } from '../common/ids/time-ordered-id.js';
import { FindingListWriter } from '../findings/finding-list-writer.js';

const assetNotFound = (id: string) => new NotFoundError(`asset ${id} not found`);

@Injectable()
export class AssetsService {
  constructor(
    private readonly assets: AssetsRepository,
    private readonly relations: RelationsRepository,
    private readonly writer: InventoryWriter,
    private readonly findingLists: FindingListWriter,
  ) {}

  /**
   * One page, the filtered total and, when more assets follow, the cursor of the next page: in
   * five queries whatever the page size (a search on SQLite fills and empties its matches' table
   * besides).
   */
  async list(query: ListAssetsQueryDto): Promise<AssetListPage> {
    const { sort, field, descending } = orderOf(query);
    const cursor = query.after === undefined ? undefined : decodeCursor(query.after, sort, field);
    const { total, rows } = await this.assets.page({
      ...filtersOf(query),
      sort: field,
      descending,
      after: cursor && { key: cursor.key, id: cursor.id },
      // One row more than the page: whether another page follows.
      limit: query.limit + 1,
      offset: query.offset,
    });
    let next: string | undefined;
    if (rows.length > query.limit) {
      rows.length = query.limit;
      const last = rows[rows.length - 1];
      next = encodeCursor({ sort, key: last.sort_key, id: last.id });
    }
    return { assets: responses(await this.assets.withLists(rows)), total, next };
  }

  /**
   * Every asset the list's filters keep, in its order, as the text of `format`: read a batch
   * at a time, each batch starting after the last asset of the one before (whatever the
   * number of assets, a batch is all that is held).
   */
  export(query: ExportAssetsQueryDto): AsyncGenerator<string> {
    const format = query.format ?? 'csv';
    return exportText(format, this.batches(query, format === 'ndjson'), ASSET_CSV_COLUMNS);
  }

  /** The answers of the assets the filters keep, in the list's order, a batch at a time. */
  private async *batches(
    query: ExportAssetsQueryDto,
    vulnerabilities: boolean,
  ): AsyncGenerator<AssetResponse[]> {
    const { field, descending } = orderOf(query);
    const filters = filtersOf(query);
    let after: AssetKey | undefined;
    for (;;) {
      const rows = await this.assets.batch({
        ...filters,
        sort: field,
        descending,
        after,
        limit: EXPORT_BATCH_SIZE,
      });
      if (rows.length === 0) return;
      const last = rows[rows.length - 1];
      after = { key: last.sort_key, id: last.id };
      yield responses(await this.assets.withLists(rows, undefined, { vulnerabilities }));
      if (rows.length < EXPORT_BATCH_SIZE) return;
    }
  }

  get(id: string): Promise<AssetResponse> {
    return this.read(id);
  }

  /**
   * The answers for these ids, in their order, for features that find assets by other means
   * (the graph queries); unknown ids are left out.
   */
  async findByIds(ids: readonly string[]): Promise<AssetResponse[]> {
    const found = new Map<string, AssetResponse>();
    for (const part of await this.assets.byIds(ids)) {
      for (const asset of responses(part)) found.set(asset.id, asset);
    }
    return ids.flatMap((id) => found.get(id) ?? []);
  }

  async create(origin: ChangeOrigin, dto: CreateAssetDto): Promise<AssetResponse> {
    const now = new Date();
    const asset: Asset = {
      id: timeOrderedId(),
      ...assetFieldProperties(dto, null),
      addresses: '',
      macAddresses: '',
      hostnames: '',
      tags: '',
      ...identityChanges(dto, []),
      source: null,
      origin: 'manual',
      firstSeenAt: null,
      lastSeenAt: null,
      createdAt: now,
      updatedAt: now,
    };
    // The asset, its services and the change record land together.
    return this.writer.create(origin, 'asset', async (unit) => {
      const { manager } = unit;
      await this.assets.insert(manager, asset, dto.services ?? []);
      await this.assets.replaceIdentifiers(manager, asset.id);
      if (dto.vulnerabilities)
        await this.findingLists.write(unit, asset.id, dto.vulnerabilities, now);
      // Read back, so that every answer comes from a stored row through the one mapper.
      return (await this.find(asset.id, manager))!;
    });
  }
  async update(origin: ChangeOrigin, id: string, dto: UpdateAssetDto): Promise<AssetResponse> {
    // The fields present; null clears one.
    const now = new Date();
    const changes: Partial<Asset> = { ...assetFieldProperties(dto), updatedAt: now };
    // Both given and not agreeing: refused before anything is read.
    identityChanges(dto, []);
    const updated = await this.writer.update(
      origin,
      'asset',
      id,
      ({ manager }) => this.find(id, manager),
      async (unit) => {
        const { manager } = unit;
        const stored = await this.assets.find(id, manager);
        const storedAddresses = identityValues(stored?.addresses);
        await this.assets.update(manager, id, {
          ...changes,
          ...identityChanges(dto, storedAddresses),
        });
        if (SPACED_LISTS.some((list) => dto[list] !== undefined) || dto.ip !== undefined)
          await this.assets.replaceIdentifiers(manager, id);
        // Present, a list replaces the stored one: all land with the asset's update, or none.
        if (dto.services !== undefined)
          await this.assets.replaceServices(manager, id, dto.services);
        if (dto.vulnerabilities !== undefined)
          await this.findingLists.write(unit, id, dto.vulnerabilities, now);
      },
    );
    if (updated === null) throw assetNotFound(id);
    return updated;
  }

  /** Its findings and every relation touching it go with it, by foreign key. */
  async remove(origin: ChangeOrigin, id: string): Promise<void> {
    const removed = await this.writer.remove(
      origin,
      'asset',
      id,
      ({ manager }) => this.find(id, manager),
      async (unit) => {
        const { manager } = unit;
        // Read first, so that the relations the cascade deletes are recorded too.
        const relations = unit.recording ? await this.relations.findTouching(manager, id) : [];
        await this.assets.delete(manager, id);
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

  /** The asset's answer, as `manager` (a write unit's, or the service's) sees it, if any. */
  private async find(id: string, manager?: WriteUnit['manager']): Promise<AssetResponse | null> {
    const row = await this.assets.find(id, manager);
    if (row === null) return null;
    const [asset] = responses(await this.assets.withLists([row], manager));
    return asset;
  }
}

/**
 * The identity and tag columns a write of `dto` changes (`storedAddresses`: the asset's
 * addresses before it): ip and addresses kept in step (resolveAddresses), each list given
 * normalized.
 */
function identityChanges(
  dto: CreateAssetDto | UpdateAssetDto,
  storedAddresses: readonly string[],
): Partial<Asset> {
  const changes: Partial<Asset> = {};
  const list = (name: SpacedList) => {
    const given = dto[name];
    if (given === undefined) return undefined;
    const read = readIdentityList(name, given, name);
    if ('problem' in read) throw new InvalidInputError(read.problem);
    return read.values;
  };
  const addresses = list('addresses');
  if (dto.ip !== undefined || addresses !== undefined) {
    const resolved = resolveAddresses(dto.ip, addresses, storedAddresses);
    if ('problem' in resolved) throw new InvalidInputError(resolved.problem);
    changes.ip = resolved.ip;
    changes.addresses = identityText(resolved.addresses);
  }
  const macAddresses = list('macAddresses');
  if (macAddresses !== undefined) changes.macAddresses = identityText(macAddresses);
  const hostnames = list('hostnames');
  if (hostnames !== undefined) changes.hostnames = identityText(hostnames);
  const tags = list('tags');
  if (tags !== undefined) changes.tags = identityText(tags);
  return changes;
}

/** The list's filters of a query, as the repository takes them. */
function filtersOf(query: AssetFiltersQuery): AssetFilters {
  return {
    type: query.type,
    site: query.site,
    source: query.source,
    port: query.port,
    service: query.service,
    cidr: query.cidr === undefined ? undefined : prefixKeyRange(query.cidr)!,
    mac: query.mac === undefined ? undefined : normalizeMac(query.mac)!,
    hostname: query.hostname === undefined ? undefined : normalizeHostname(query.hostname)!,
    tags: query.tag,
    search: query.search,
  };
}

/** The list's order of a query: as asked (default createdAt), its field, and which way. */
function orderOf(query: Pick<AssetFiltersQuery, 'sort'>): {
  sort: string;
  field: AssetSortField;
  descending: boolean;
} {
  const sort = query.sort ?? 'createdAt';
  return {
    sort,
    field: sort.replace(/^-/, '') as AssetSortField,
    descending: sort.startsWith('-'),
  };
}

/** A page of the list, and the cursor of the page after it, if any. */
export interface AssetListPage extends AssetListResponse {
  next?: string;
}
