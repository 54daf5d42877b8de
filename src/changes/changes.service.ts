import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { Asset } from '../database/entities/asset.entity.js';
import type { PageQueryDto } from '../common/dto/page-query.dto.js';
import { NotFoundError } from '../common/errors/not-found.error.js';
import type { AppConfig } from '../config/app-config.js';
import { readArrays } from '../database/sql-reads.js';
import { APP_CONFIG } from '../config/config.module.js';
import { Dialect } from '../database/dialect/dialect.js';
import { Change, type ChangeRow } from '../database/entities/change.entity.js';
import { afterColumn } from '../database/history/creation-sql.js';
import type { ListChangesQueryDto } from './dto/list-changes-query.dto.js';
import { firstIdAt, ID_TIME_SLACK_MS } from '../database/history/record-ids.js';

// The lists are read on every history page: their queries are written out rather than built
// by TypeORM, whose query building costs more than running them (each an index range scan).
const COUNT_CHANGES = 'SELECT COUNT(*) AS total FROM changes';
const WITH_SETS = 'FROM changes c JOIN change_sets s ON s.id = c.change_set_id';
// Record ids carry their time (record-ids.ts): the primary key orders them newest first.
const NEWEST_FIRST = 'ORDER BY c.id DESC LIMIT :limit OFFSET :offset';
const OF_ASSET = " WHERE object_type = 'asset' AND object_id = :id";
// In ChangeRow's order, `after` last (afterColumn).
const COLUMNS =
  'c.id, c.time, c.action, c.object_type, c.object_id, s.actor_user_id, s.actor_email, s.actor_api_key_id, s.actor_api_key_prefix, s.request_id, s.run_id, c.before';
// The records of the writes of one actor or of one run: their change sets first (by the sets'
// indexes), then those sets' records (by the records' index on change_set_id).
const IN_SETS_OF = (column: string, parameter: string) =>
  `c.change_set_id IN (SELECT id FROM change_sets WHERE ${column} = :${parameter})`;

/** The change queries of one database. */
function changeQueries(dialect: Dialect) {
  const select = `SELECT ${COLUMNS}, ${afterColumn(dialect, 'c')}`;
  return {
    select: `${select} ${WITH_SETS}`,
    // One asset's page and its total in one statement: one round trip instead of two is a good
    // part of this route's cost. The total is a subquery counted once (on the index alone), not
    // a window (COUNT(*) OVER ()), which makes SQLite copy and sort the records again.
    ofAsset: `${select}, (${COUNT_CHANGES}${OF_ASSET}) AS total ${WITH_SETS}${OF_ASSET} ${NEWEST_FIRST}`,
  };
}

/** An asset's page has its total in each row, after the record's columns (ChangeRow). */
const TOTAL = 13;

export interface ChangePage {
  changes: ChangeRow[];
  /** Every change matching the filters, before paging. */
  total: number;
}

/** The change history's lists (InventoryWriter writes its records, in the writes' transactions). */
@Injectable()
export class ChangesService {
  private readonly queries: ReturnType<typeof changeQueries>;

  constructor(
    @InjectRepository(Change) private readonly changes: Repository<Change>,
    @InjectRepository(Asset) private readonly assets: Repository<Asset>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly dialect: Dialect,
  ) {
    this.queries = changeQueries(this.dialect);
  }

  /** One page, newest first, and the filtered total. */
  async list(query: ListChangesQueryDto): Promise<ChangePage> {
    const conditions: string[] = [];
    const parameters: Record<string, unknown> = {};
    const filter = (condition: string, values: Record<string, unknown>) => {
      conditions.push(condition);
      Object.assign(parameters, values);
    };
    const { objectType, objectId, actorId, runId, since, until } = query;
    if (objectType !== undefined) filter('c.object_type = :objectType', { objectType });
    if (objectId !== undefined) filter('c.object_id = :objectId', { objectId });
    if (actorId !== undefined) filter(IN_SETS_OF('actor_user_id', 'actorId'), { actorId });
    if (runId !== undefined) filter(IN_SETS_OF('run_id', 'runId'), { runId });
    // The time filters on the time itself, and on the ids for the primary key's range scan.
    if (since !== undefined) {
      const from = new Date(since);
      filter('c.time >= :since AND c.id >= :sinceId', { since: from, sinceId: firstIdAt(from) });
    }
    if (until !== undefined) {
      const to = new Date(until);
      filter('c.time < :until AND c.id < :untilId', {
        until: to,
        untilId: firstIdAt(new Date(to.getTime() + ID_TIME_SLACK_MS)),
      });
    }
    const where = conditions.length > 0 ? ` WHERE ${conditions.join(' AND ')}` : '';
    return this.page(where, parameters, query);
  }

  /**
   * An asset's changes, also once it is deleted. An id with neither records nor an asset is a
   * 404, so that a mistyped id is not mistaken for an asset nobody changed.
   */
  async forAsset(id: string, paging: PageQueryDto): Promise<ChangePage> {
    const rows = await this.read(
      this.queries.ofAsset,
      { id, limit: paging.limit, offset: paging.offset },
      'asset-changes',
    );
    const page: ChangePage =
      rows.length > 0
        ? { changes: rows as ChangeRow[], total: Number(rows[0][TOTAL]) }
        : // Past the end, or none: the total counted on its own.
          await this.page(OF_ASSET, { id }, paging);
    if (page.total === 0 && !(await this.assets.existsBy({ id }))) {
      throw new NotFoundError(`asset ${id} not found`);
    }
    return page;
  }

  private async page(
    where: string,
    parameters: Record<string, unknown>,
    paging: PageQueryDto,
  ): Promise<ChangePage> {
    const [[counted]] = await this.read(`${COUNT_CHANGES} c${where}`, parameters);
    const total = Number(counted);
    // Past the end (or nothing to find): no second query.
    const changes =
      paging.offset >= total
        ? []
        : ((await this.read(`${this.queries.select}${where} ${NEWEST_FIRST}`, {
            ...parameters,
            limit: paging.limit,
            offset: paging.offset,
          })) as ChangeRow[]);
    return { changes, total };
  }

  /** A read of the lists, through the data source's own connection (readArrays). */
  private read(
    sql: string,
    parameters: Record<string, unknown>,
    prepared?: string,
  ): Promise<unknown[][]> {
    return readArrays(this.changes.manager.connection, sql, parameters, prepared);
  }
}
