import { Inject, Injectable, NotFoundException } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository, type EntityManager } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { Asset } from '../assets/asset.entity.js';
import type { PageQueryDto } from '../common/dto/page-query.dto.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { Change } from './change.entity.js';
import type { ChangeInput, ChangeOrigin } from './change-origin.js';
import type { ListChangesQueryDto } from './dto/list-changes-query.dto.js';

export interface ChangePage {
  changes: Change[];
  /** Every change matching the filters, before paging. */
  total: number;
}

// Rows of one multi-row insert: 13 values each, well within either database's parameter limit.
const CHANGES_PER_INSERT = 500;

/** A change row's values, for `origin`'s write of `input` at `time`. */
export function changeRow(origin: ChangeOrigin, input: ChangeInput, time: Date): Change {
  const { caller } = origin;
  return {
    id: uuidv7(),
    time,
    action: input.action,
    objectType: input.objectType,
    objectId: input.objectId,
    actorUserId: caller.userId,
    actorEmail: caller.email,
    actorApiKeyId: caller.apiKeyId,
    actorApiKeyPrefix: caller.apiKeyPrefix,
    requestId: origin.requestId,
    runId: origin.runId,
    before: input.before === null ? null : JSON.stringify(input.before),
    after: input.after === null ? null : JSON.stringify(input.after),
  };
}

/** The change history: its records, written in the writes' own transactions, and its lists. */
@Injectable()
export class ChangesService {
  constructor(
    @InjectRepository(Change) private readonly changes: Repository<Change>,
    @InjectRepository(Asset) private readonly assets: Repository<Asset>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Whether writes record their changes (always, but in a bench measuring their cost). */
  get enabled(): boolean {
    return this.config.changeHistory;
  }

  /**
   * Records `inputs` through `manager`, the write's transaction, so that they share its fate.
   * `origin` null: a write of the service's own at start-up, by no request, is not recorded.
   */
  async record(
    manager: EntityManager,
    origin: ChangeOrigin | null,
    inputs: ChangeInput[],
  ): Promise<void> {
    if (!this.enabled || origin === null || inputs.length === 0) return;
    const time = new Date();
    const rows = inputs.map((input) => changeRow(origin, input, time));
    for (let start = 0; start < rows.length; start += CHANGES_PER_INSERT) {
      await manager
        .createQueryBuilder()
        .insert()
        .into(Change)
        .values(rows.slice(start, start + CHANGES_PER_INSERT))
        .execute();
    }
  }

  /** One page, newest first, and the filtered total. */
  async list(query: ListChangesQueryDto): Promise<ChangePage> {
    const select = this.changes.createQueryBuilder('change');
    if (query.objectType !== undefined) {
      select.andWhere('change.objectType = :objectType', { objectType: query.objectType });
    }
    if (query.objectId !== undefined) {
      select.andWhere('change.objectId = :objectId', { objectId: query.objectId });
    }
    if (query.actorId !== undefined) {
      select.andWhere('change.actorUserId = :actorId', { actorId: query.actorId });
    }
    if (query.runId !== undefined) select.andWhere('change.runId = :runId', { runId: query.runId });
    if (query.since !== undefined) {
      select.andWhere('change.time >= :since', { since: new Date(query.since) });
    }
    if (query.until !== undefined) {
      select.andWhere('change.time < :until', { until: new Date(query.until) });
    }
    return this.page(select, query);
  }

  /**
   * An asset's changes, also once it is deleted. An id with neither records nor an asset is a
   * 404, so that a mistyped id is not mistaken for an asset nobody changed.
   */
  async forAsset(id: string, paging: PageQueryDto): Promise<ChangePage> {
    const select = this.changes
      .createQueryBuilder('change')
      .where('change.objectType = :type', { type: 'asset' })
      .andWhere('change.objectId = :id', { id });
    const page = await this.page(select, paging);
    if (page.total === 0 && !(await this.assets.existsBy({ id }))) {
      throw new NotFoundException(`asset ${id} not found`);
    }
    return page;
  }

  private async page(
    select: ReturnType<Repository<Change>['createQueryBuilder']>,
    paging: PageQueryDto,
  ): Promise<ChangePage> {
    const [changes, total] = await select
      .orderBy('change.time', 'DESC')
      .addOrderBy('change.id', 'DESC')
      .limit(paging.limit)
      .offset(paging.offset)
      .getManyAndCount();
    return { changes, total };
  }
}
