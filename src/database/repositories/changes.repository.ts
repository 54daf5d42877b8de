import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { In, LessThan } from 'typeorm';
import { AppDataSource } from '../app-data-source.js';
import { Dialect } from '../dialect/dialect.js';
import { ChangeSet } from '../entities/change-set.entity.js';
import { Change, type ChangeObjectType, type ChangeRow } from '../entities/change.entity.js';
import { afterColumn } from '../history/creation-sql.js';
import { firstIdAt, ID_TIME_SLACK_MS } from '../history/record-ids.js';
import { readArrays } from '../sql-reads.js';
import { ACTOR_COLUMNS } from '../tables/actor.table.js';
import { CHANGE_SET_COLUMNS } from '../tables/change-sets.table.js';
import { CHANGE_COLUMNS } from '../tables/changes.table.js';

// The lists are read on every history page: their queries are written out rather than built
// by TypeORM, whose query building costs more than running them (each an index range scan).
const COUNT_CHANGES = 'SELECT COUNT(*) AS total FROM changes';
const WITH_SETS = 'FROM changes c JOIN change_sets s ON s.id = c.change_set_id';
// Record ids carry their time (record-ids.ts): the primary key orders them newest first.
const NEWEST_FIRST = 'ORDER BY c.id DESC LIMIT :limit OFFSET :offset';
const OF_ASSET = " WHERE object_type = 'asset' AND object_id = :id";
const change = (property: keyof typeof CHANGE_COLUMNS) => `c.${CHANGE_COLUMNS[property].name}`;
const changeSet = (column: { name: string }) => `s.${column.name}`;
// In ChangeRow's order, `after` last (afterColumn).
const COLUMNS = [
  change('id'),
  change('time'),
  change('action'),
  change('objectType'),
  change('objectId'),
  ...Object.values(ACTOR_COLUMNS).map(changeSet),
  changeSet(CHANGE_SET_COLUMNS.requestId),
  changeSet(CHANGE_SET_COLUMNS.runId),
  change('before'),
].join(', ');
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

/** Which records a list shows; each filter given narrows it. */
export interface ChangeFilters {
  objectType?: ChangeObjectType;
  objectId?: string;
  /** The records of this user's writes (their change sets' actor). */
  actorId?: string;
  runId?: string;
  /** At or after this time. */
  since?: Date;
  /** Before this time. */
  until?: Date;
}

export interface ChangePaging {
  limit: number;
  offset: number;
}

export interface ChangePage {
  changes: ChangeRow[];
  /** Every change matching the filters, before paging. */
  total: number;
}

/** A record past its retention, as the retention deletes it. */
export type ExpiredChange = Pick<Change, 'id' | 'changeSetId'>;

/**
 * The change history's reads (its lists) and its retention's deletes. Its records are written
 * in the transactions of the writes they describe (ChangeRecorder, through InventoryWriter).
 */
@Injectable()
export class ChangesRepository {
  private readonly queries: ReturnType<typeof changeQueries>;

  constructor(@InjectDataSource() private readonly dataSource: AppDataSource) {
    this.queries = changeQueries(dataSource.dialect);
  }

  /** One page of the records `filters` keep, newest first, and their total. */
  async list(filters: ChangeFilters, paging: ChangePaging): Promise<ChangePage> {
    const conditions: string[] = [];
    const parameters: Record<string, unknown> = {};
    const filter = (condition: string, values: Record<string, unknown>) => {
      conditions.push(condition);
      Object.assign(parameters, values);
    };
    const { objectType, objectId, actorId, runId, since, until } = filters;
    if (objectType !== undefined) filter('c.object_type = :objectType', { objectType });
    if (objectId !== undefined) filter('c.object_id = :objectId', { objectId });
    if (actorId !== undefined) filter(IN_SETS_OF('actor_user_id', 'actorId'), { actorId });
    if (runId !== undefined) filter(IN_SETS_OF('run_id', 'runId'), { runId });
    // The time filters on the time itself, and on the ids for the primary key's range scan.
    if (since !== undefined) {
      filter('c.time >= :since AND c.id >= :sinceId', { since, sinceId: firstIdAt(since) });
    }
    if (until !== undefined) {
      filter('c.time < :until AND c.id < :untilId', {
        until,
        untilId: firstIdAt(new Date(until.getTime() + ID_TIME_SLACK_MS)),
      });
    }
    const where = conditions.length > 0 ? ` WHERE ${conditions.join(' AND ')}` : '';
    return this.page(where, parameters, paging);
  }

  /** One page of an asset's records, newest first, and their total; also once it is deleted. */
  async ofAsset(id: string, paging: ChangePaging): Promise<ChangePage> {
    const rows = await this.read(
      this.queries.ofAsset,
      { id, limit: paging.limit, offset: paging.offset },
      'asset-changes',
    );
    return rows.length > 0
      ? { changes: rows as ChangeRow[], total: Number(rows[0][TOTAL]) }
      : // Past the end, or none: the total counted on its own.
        this.page(OF_ASSET, { id }, paging);
  }

  /**
   * The records older than `cutoff`, oldest first, at most `batch` (found by the primary key:
   * record ids carry their time, record-ids.ts).
   */
  expired(cutoff: Date, batch: number): Promise<ExpiredChange[]> {
    return this.dataSource.manager.find(Change, {
      select: { id: true, changeSetId: true },
      // By the ids' range on the primary key; the time itself bounds exactly.
      where: {
        time: LessThan(cutoff),
        id: LessThan(firstIdAt(new Date(cutoff.getTime() + ID_TIME_SLACK_MS))),
      },
      order: { id: 'ASC' },
      take: batch,
    });
  }

  /**
   * Deletes these records, and the change sets they leave without records, in one transaction
   * of their own (they change no object of the inventory); answers how many records went.
   */
  remove(expired: readonly ExpiredChange[]): Promise<number> {
    return this.dataSource.transact(async (manager) => {
      const result = await manager.delete(Change, { id: In(expired.map((change) => change.id)) });
      await manager
        .createQueryBuilder()
        .delete()
        .from(ChangeSet)
        .where('id IN (:...ids)', { ids: [...new Set(expired.map((c) => c.changeSetId))] })
        .andWhere('NOT EXISTS (SELECT 1 FROM changes c WHERE c.change_set_id = change_sets.id)')
        .execute();
      return result.affected ?? 0;
    });
  }

  private async page(
    where: string,
    parameters: Record<string, unknown>,
    paging: ChangePaging,
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
    return readArrays(this.dataSource, sql, parameters, prepared);
  }
}
