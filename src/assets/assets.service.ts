import { Injectable, NotFoundException } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { In, Repository, type QueryDeepPartialEntity, type SelectQueryBuilder } from 'typeorm';
import { Asset } from './asset.entity.js';
import type { AssetListResponse } from './dto/asset-list-response.dto.js';
import { toAssetResponse, type AssetResponse } from './dto/asset-response.dto.js';
import type { CreateAssetDto } from './dto/create-asset.dto.js';
import type { AssetSortField, ListAssetsQueryDto } from './dto/list-assets-query.dto.js';
import type { UpdateAssetDto } from './dto/update-asset.dto.js';
import { Vulnerability } from './vulnerability.entity.js';

const SORT_COLUMNS: Record<AssetSortField, string> = {
  name: 'asset.name',
  ip: 'asset.ip',
  type: 'asset.type',
  vendor: 'asset.vendor',
  site: 'asset.site',
  risk_score: 'asset.riskScore',
  createdAt: 'asset.createdAt',
  updatedAt: 'asset.updatedAt',
};
const SEARCHED_COLUMNS = ['name', 'ip', 'vendor', 'model', 'site', 'type', 'osVersion'];

/** `%term%` for LIKE, with the term's own wildcards escaped. */
function containsPattern(term: string): string {
  return `%${term.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

@Injectable()
export class AssetsService {
  constructor(
    @InjectRepository(Asset) private readonly assets: Repository<Asset>,
    @InjectRepository(Vulnerability) private readonly vulnerabilities: Repository<Vulnerability>,
  ) {}

  /** One page and the filtered total, in three queries whatever the page size. */
  async list(query: ListAssetsQueryDto): Promise<AssetListResponse> {
    const filtered = this.filteredAssets(query);
    // COUNT(*) rather than getCount()'s COUNT(DISTINCT id): the same number, far cheaper.
    const counted = await filtered
      .clone()
      .select('COUNT(*)', 'total')
      .getRawOne<{ total: string | number }>();
    const total = Number(counted?.total ?? 0);

    const descending = query.sort?.startsWith('-') ?? false;
    const field = (query.sort?.replace(/^-/, '') ?? 'createdAt') as AssetSortField;
    // Nulls sort as the largest value on both databases; id makes the order total.
    const page = await filtered
      .orderBy(
        SORT_COLUMNS[field],
        descending ? 'DESC' : 'ASC',
        descending ? 'NULLS FIRST' : 'NULLS LAST',
      )
      .addOrderBy('asset.id', 'ASC')
      .offset(query.offset)
      .limit(query.limit)
      .getMany();

    const vulnerabilities = await this.vulnerabilitiesOf(page.map((asset) => asset.id));
    return {
      assets: page.map((asset) => toAssetResponse(asset, vulnerabilities.get(asset.id) ?? [])),
      total,
    };
  }

  async get(id: string): Promise<AssetResponse> {
    const asset = await this.assets.findOneBy({ id });
    if (!asset) throw new NotFoundException(`asset ${id} not found`);
    return toAssetResponse(asset, (await this.vulnerabilitiesOf([id])).get(id) ?? []);
  }

  async create(dto: CreateAssetDto): Promise<AssetResponse> {
    const now = new Date();
    const asset = this.assets.create({
      id: randomUUID(),
      name: dto.name,
      ip: dto.ip ?? null,
      type: dto.type ?? null,
      vendor: dto.vendor ?? null,
      model: dto.model ?? null,
      riskScore: dto.risk_score ?? null,
      site: dto.site ?? null,
      osVersion: dto.os_version ?? null,
      source: null,
      createdAt: now,
      updatedAt: now,
    });
    await this.assets.insert(asset);
    return toAssetResponse(asset, []);
  }

  async update(id: string, dto: UpdateAssetDto): Promise<AssetResponse> {
    const changes: QueryDeepPartialEntity<Asset> = { updatedAt: new Date() };
    if (dto.name !== undefined) changes.name = dto.name;
    if (dto.ip !== undefined) changes.ip = dto.ip;
    if (dto.type !== undefined) changes.type = dto.type;
    if (dto.vendor !== undefined) changes.vendor = dto.vendor;
    if (dto.model !== undefined) changes.model = dto.model;
    if (dto.risk_score !== undefined) changes.riskScore = dto.risk_score;
    if (dto.site !== undefined) changes.site = dto.site;
    if (dto.os_version !== undefined) changes.osVersion = dto.os_version;
    const result = await this.assets.update({ id }, changes);
    if (!result.affected) throw new NotFoundException(`asset ${id} not found`);
    return this.get(id);
  }

  /** Its vulnerabilities and every relation touching it go with it, by foreign key. */
  async remove(id: string): Promise<void> {
    const result = await this.assets.delete({ id });
    if (!result.affected) throw new NotFoundException(`asset ${id} not found`);
  }

  private filteredAssets(query: ListAssetsQueryDto): SelectQueryBuilder<Asset> {
    const builder = this.assets.createQueryBuilder('asset');
    if (query.type !== undefined) builder.andWhere('asset.type = :type', { type: query.type });
    if (query.site !== undefined) builder.andWhere('asset.site = :site', { site: query.site });
    if (query.search) {
      const matches = SEARCHED_COLUMNS.map(
        (column) => `LOWER(asset.${column}) LIKE :pattern ESCAPE '\\'`,
      );
      builder.andWhere(`(${matches.join(' OR ')})`, { pattern: containsPattern(query.search) });
    }
    return builder;
  }

  /** The vulnerabilities of several assets in one query, by asset id. */
  private async vulnerabilitiesOf(assetIds: string[]): Promise<Map<string, Vulnerability[]>> {
    const byAsset = new Map<string, Vulnerability[]>();
    if (assetIds.length === 0) return byAsset;
    const rows = await this.vulnerabilities.find({
      where: { assetId: In(assetIds) },
      order: { assetId: 'ASC', id: 'ASC' },
    });
    for (const row of rows) {
      const list = byAsset.get(row.assetId);
      if (list) list.push(row);
      else byAsset.set(row.assetId, [row]);
    }
    return byAsset;
  }
}
