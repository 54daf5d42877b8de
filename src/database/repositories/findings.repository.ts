import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { In, type EntityManager } from 'typeorm';
import { Finding } from '../entities/finding.entity.js';
import { FindingPeriod } from '../entities/finding-period.entity.js';
import { FindingSource } from '../entities/finding-source.entity.js';
import {
  type DueSeverity,
  type FindingSortField,
  type FindingStatus,
  type Severity,
  type TriageStatus,
} from '../../common/field-rules/finding-values.js';
import { AppDataSource } from '../app-data-source.js';
import { Dialect } from '../dialect/dialect.js';
import type { ActorColumns } from '../entities/actor-columns.js';
import { runNamed, type ReadOptions } from '../sql-reads.js';
import type { FindingSourceRow } from '../tables/finding-sources.table.js';
import type { FindingRow } from '../tables/findings.table.js';
import {
  DUE_SEVERITIES,
  FindingCountReads,
  OPENED,
  type CountRow,
} from './findings/finding-count-reads.js';
import { EXPIRED, orderedWalks, storedStatuses } from './findings/finding-walks.js';
import {
  FINDINGS_SELECT,
  FINDING_SELECT_LIST,
  FINDING_SOURCES_SELECT,
} from './findings/finding-selects.js';
import { sourcesByFinding } from './findings/finding-event-reads.js';

/** Stored findings' rows, with the `sources` of each in order. */
export interface FindingsWithSources {
  rows: FindingRow[];
  sources: Map<string, string[]>;
}

/**
 * Which findings a read counts or lists; each filter given narrows it. `statuses` are the
 * statuses as the API shows them (an acceptance past its acceptedUntil is open).
 */
export interface FindingFilters {
  statuses?: readonly FindingStatus[];
  severities?: readonly Severity[];
  vulnId?: string;
  assetId?: string;
  /** A feed its `sources` hold. */
  source?: string;
  /** Its asset's site. */
  site?: string;
  minScore?: number;
  overdue?: boolean;
}

/** What the clock decides in a read: what counts as open, what is overdue, when it is due. */
export interface FindingClock {
  now: Date;
  /** By severity, the opening (or last reopening) before which an open finding is overdue. */
  overdueBefore: Readonly<Record<DueSeverity, Date>>;
  /** By severity, the days from its opening to its due date (FINDING_SLA_DAYS). */
  dueDays: Readonly<Record<DueSeverity, number>>;
}

/** A page of the list as asked: its order, where it starts and how many rows. */
export interface FindingPageQuery {
  sort: FindingSortField;
  descending: boolean;
  limit: number;
  offset: number;
}

/**
 * A finding's place in an order: its sort value as the read gives it (a number, or a
 * timestamp's text, exact: bound again as it is), null when missing, and its id.
 */
export interface FindingKey {
  key: string | number | null;
  id: string;
}

/** Rows of the list in its order: where they start, and how many. */
export interface FindingBatchQuery {
  sort: FindingSortField;
  descending: boolean;
  /** The finding the rows start after. */
  after?: FindingKey;
  limit: number;
}

/** A finding's row with its sort value (FindingKey's `key`). */
export type KeyedFindingRow = FindingRow & { sort_key: string | number | null };

/** The findings of one stored status and severity, counted for the summary. */
export interface FindingCountRow {
  status: FindingStatus;
  severity: Severity;
  total: number;
  /** Those accepted until a time now past: they count as open. */
  expired: number;
  overdue: number;
}

/** Counts of findings by severity, on one UTC day (`YYYY-MM-DD`) or at one time. */
export interface SeverityCountRow {
  day?: string;
  severity: Severity;
  total: number;
}

/** The trend's counts: the periods open at its start, and its openings and closings by day. */
export interface FindingTrendCounts {
  atStart: SeverityCountRow[];
  openings: SeverityCountRow[];
  closings: SeverityCountRow[];
}

/** What a triage writes on the finding, and what it does to its open period. */
export interface FindingTriage {
  status: TriageStatus;
  reason: string | null;
  acceptedUntil: Date | null;
  triagedBy: ActorColumns | null;
  /** `close`: its open period ends (a false positive); `open`: a new one starts; null: neither. */
  period: 'close' | 'open' | null;
}

// Columns are left unqualified, and `findings` unaliased, so that the conditions read the same
// over the table alone and joined to its periods (whose columns have other names).
const COUNT_FINDINGS = 'SELECT COUNT(*) AS total FROM findings';
// The periods' own severity left out: the finding's is the one filtered.
const PERIODS =
  'FROM (SELECT finding_id, opened_at, closed_at FROM finding_periods) p JOIN findings ON findings.id = p.finding_id';
const SORT_COLUMNS: Record<Exclude<FindingSortField, 'dueAt'>, string> = {
  score: 'score',
  firstSeenAt: 'first_seen_at',
  lastSeenAt: 'last_seen_at',
  fixedAt: 'fixed_at',
};
/** Counts as open at :now: open, or accepted until a time now past. NULL-free. */
const COUNTS_AS_OPEN =
  "(status = 'open' OR (status = 'accepted' AND accepted_until IS NOT NULL AND accepted_until <= :now))";
/** Counts as open and was opened before its severity's :overdue_<severity>. NULL-free. */
const OVERDUE = `(${COUNTS_AS_OPEN} AND (${DUE_SEVERITIES.map(
  (severity) => `(severity = '${severity}' AND ${OPENED} < :overdue_${severity})`,
).join(' OR ')}))`;
const HAS_SOURCE =
  'EXISTS (SELECT 1 FROM finding_sources s WHERE s.finding_id = findings.id AND s.source = :source)';
const AT_SITE = 'asset_id IN (SELECT id FROM assets WHERE site = :site)';

/** Whether `filters` filter by nothing but the keys named: the counts' reads serve them. */
function onlyFilters(filters: FindingFilters, keys: readonly (keyof FindingFilters)[]): boolean {
  return Object.entries(filters).every(
    ([key, value]) => value === undefined || keys.includes(key as keyof FindingFilters),
  );
}

/**
 * How many findings `statuses` (as the API shows them; all when undefined) keep, from the counts
 * by stored status and the expired acceptances (stored as accepted, shown as open).
 */
function shownTotal(
  byStatus: readonly CountRow[],
  expired: readonly CountRow[],
  statuses: readonly FindingStatus[] | undefined,
): number {
  const shown = (status: FindingStatus) => statuses === undefined || statuses.includes(status);
  let total = 0;
  for (const row of byStatus) if (shown(row.status!)) total += row.total;
  for (const row of expired) {
    if (shown('accepted')) total -= row.total;
    if (shown('open')) total += row.total;
  }
  return total;
}

/**
 * The condition of `statuses` as the API shows them, on the stored status (which the list's
 * index serves) and, where an acceptance's end decides, accepted_until; the stored statuses as
 * :storedStatuses. A single stored status is one range of the index, in the list's order.
 */
function statusCondition(
  statuses: readonly FindingStatus[],
  noneExpired: boolean,
): {
  condition: string;
  storedStatuses: FindingStatus[];
} {
  const stored = storedStatuses(statuses, noneExpired);
  const conditions = ['status IN (:...storedStatuses)'];
  for (const { status, also } of stored)
    if (also !== undefined) conditions.push(`(status <> '${status}' OR ${also})`);
  return {
    condition: conditions.join(' AND '),
    storedStatuses: stored.map(({ status }) => status),
  };
}

/** The WHERE of `filters` (' WHERE ...', or '' for none), with its :named parameters. */
function filtersWhere(
  filters: FindingFilters,
  clock: FindingClock,
  more: string[] = [],
  noneExpired = false,
): { where: string; parameters: Record<string, unknown> } {
  const conditions: string[] = [];
  const parameters: Record<string, unknown> = { now: clock.now };
  for (const severity of DUE_SEVERITIES)
    parameters[`overdue_${severity}`] = clock.overdueBefore[severity];
  const filter = (condition: string, values: Record<string, unknown> = {}) => {
    conditions.push(condition);
    Object.assign(parameters, values);
  };
  const { statuses, severities, vulnId, assetId, source, site, minScore, overdue } = filters;
  if (statuses !== undefined) {
    const { condition, storedStatuses } = statusCondition(statuses, noneExpired);
    filter(condition, { storedStatuses });
  }
  if (severities !== undefined) filter('severity IN (:...severities)', { severities });
  if (vulnId !== undefined) filter('vuln_id = :vulnId', { vulnId });
  if (assetId !== undefined) filter('asset_id = :assetId', { assetId });
  if (source !== undefined) filter(HAS_SOURCE, { source });
  if (site !== undefined) filter(AT_SITE, { site });
  if (minScore !== undefined) filter('score >= :minScore', { minScore });
  if (overdue !== undefined) filter(overdue ? OVERDUE : `NOT ${OVERDUE}`);
  conditions.push(...more);
  return {
    where: conditions.length > 0 ? ` WHERE ${conditions.join(' AND ')}` : '',
    parameters,
  };
}

/**
 * Every query over the findings that the API's routes make: the list, its summary and trend,
 * reads by id, and a triage's write (the writes that list an asset's vulnerabilities share the
 * ingestion's statements: findings/finding-writes.ts).
 */
@Injectable()
export class FindingsRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: AppDataSource,
    private readonly dialect: Dialect,
  ) {}

  /** A page of the findings `filters` keep, with their sources, and the filtered total. */
  async page(
    filters: FindingFilters,
    clock: FindingClock,
    page: FindingPageQuery,
  ): Promise<FindingsWithSources & { total: number }> {
    const counts = new FindingCountReads(this.read.bind(this));
    const counted = onlyFilters(filters, ['statuses', 'severities']);
    // The acceptances past their end among the severities asked: few, by index. Without any,
    // a status filter is the stored status alone.
    const expired =
      counted || filters.statuses !== undefined
        ? await counts.expired(clock.now, clock.overdueBefore, filters.severities)
        : [];
    const { where, parameters } = filtersWhere(filters, clock, [], expired.length === 0);
    const total = counted
      ? shownTotal(await counts.byStatus(filters.severities), expired, filters.statuses)
      : await this.count(where, parameters);
    // Past the end (or nothing to find): no second query.
    if (page.offset >= total) return { rows: [], sources: new Map(), total };
    const rows = await this.orderedRows<FindingRow>(
      FINDINGS_SELECT,
      filters,
      clock,
      expired.length === 0,
      page,
      { limit: page.limit, offset: page.offset },
    );
    const sources = await this.sourcesOf(
      rows.map((row) => row.id),
      this.dataSource.manager,
    );
    return { rows, sources, total };
  }

  /**
   * The findings `filters` and `more` keep, selected by `select` (over `findings`, without its
   * WHERE), in the list's order, `window.limit` of them from `window.offset`. Where the filters
   * ask several statuses or severities that lead the order's index, each combination's first
   * offset + limit rows in order (a walk of the index), then those sorted once.
   */
  private orderedRows<T>(
    select: string,
    filters: FindingFilters,
    clock: FindingClock,
    noneExpired: boolean,
    { sort, descending }: { sort: FindingSortField; descending: boolean },
    window: { limit: number; offset: number },
    more: { conditions: string[]; parameters: Record<string, unknown> } = {
      conditions: [],
      parameters: {},
    },
    options: ReadOptions = {},
  ): Promise<T[]> {
    const order = this.orderBy(sort, descending, clock);
    const read = (sql: string, parameters: Record<string, unknown>) =>
      runNamed<T>(this.dataSource.manager, sql, { ...parameters, ...window }, options);
    const split = orderedWalks(filters, sort, noneExpired);
    if (split === null) {
      const { where, parameters } = filtersWhere(filters, clock, more.conditions, noneExpired);
      return read(`${select}${where} ORDER BY ${order} LIMIT :limit OFFSET :offset`, {
        ...parameters,
        ...more.parameters,
      });
    }
    const parameters: Record<string, unknown> = {
      ...more.parameters,
      reach: window.offset + window.limit,
    };
    // Each walk a subquery: SQLite takes no parenthesised SELECT, nor an ORDER BY, in a UNION.
    const walks = split.walks.map(({ condition, parameters: own }, index) => {
      const { where, parameters: shared } = filtersWhere(split.rest, clock, [
        condition,
        ...more.conditions,
      ]);
      Object.assign(parameters, shared, own);
      return `SELECT * FROM (${select}${where} ORDER BY ${order} LIMIT :reach) walk${index}`;
    });
    return read(
      `SELECT * FROM (${walks.join(' UNION ALL ')}) walks ORDER BY ${order} LIMIT :limit OFFSET :offset`,
      parameters,
    );
  }

  /**
   * The next rows of an export, with their sources: the findings `filters` keep, in the list's
   * order, from after `query.after`, without a total. Each row carries its sort value, read
   * with timestamps as text (exact on PostgreSQL, to the microsecond) to be bound again.
   */
  async batch(
    filters: FindingFilters,
    clock: FindingClock,
    query: FindingBatchQuery,
  ): Promise<{ rows: KeyedFindingRow[]; sources: Map<string, string[]> }> {
    // The acceptances past their end among the severities asked: without any, a status filter
    // is the stored status alone.
    const expired =
      filters.statuses === undefined
        ? []
        : await new FindingCountReads(this.read.bind(this)).expired(
            clock.now,
            clock.overdueBefore,
            filters.severities,
          );
    const expression = this.sortExpression(query.sort, clock);
    const after: string[] = [];
    const keys: Record<string, unknown> = {};
    if (query.after !== undefined) {
      const { key, id } = query.after;
      // Missing values last either way, then by id (orderBy).
      const tie = 'id > :afterId';
      after.push(
        key === null
          ? `(${expression} IS NULL AND ${tie})`
          : `(${expression} ${query.descending ? '<' : '>'} :afterKey OR (${expression} = :afterKey AND ${tie}) OR ${expression} IS NULL)`,
      );
      Object.assign(keys, { afterKey: key, afterId: id });
    }
    const rows = await this.orderedRows<KeyedFindingRow>(
      `SELECT ${FINDING_SELECT_LIST}, ${expression} AS sort_key FROM findings`,
      filters,
      clock,
      expired.length === 0,
      query,
      { limit: query.limit, offset: 0 },
      { conditions: after, parameters: keys },
      { timestampsAsText: true },
    );
    const sources = await this.sourcesOf(
      rows.map((row) => row.id),
      this.dataSource.manager,
    );
    return { rows, sources };
  }

  /** How many findings a WHERE keeps, counted. */
  private async count(where: string, parameters: Record<string, unknown>): Promise<number> {
    const [{ total }] = await this.read<{ total: number | string }>(
      COUNT_FINDINGS + where,
      parameters,
    );
    return Number(total);
  }

  /**
   * The summary's counts of the findings `filters` keep: by stored status and severity (with
   * the expired acceptances and the overdue among them), in one pass; then those first seen
   * since `since`, and those fixed since then.
   */
  async summaryCounts(
    filters: FindingFilters,
    clock: FindingClock,
    since: Date,
  ): Promise<{ groups: FindingCountRow[]; openedSince: number; fixedSince: number }> {
    if (onlyFilters(filters, ['severities'])) return this.countedSummary(filters, clock, since);
    const { where, parameters } = filtersWhere(filters, clock);
    const groups = await this.read<FindingCountRow>(
      `SELECT status, severity, COUNT(*) AS total,
        SUM(CASE WHEN ${EXPIRED} THEN 1 ELSE 0 END) AS expired,
        SUM(CASE WHEN ${OVERDUE} THEN 1 ELSE 0 END) AS overdue
      FROM findings${where} GROUP BY status, severity`,
      parameters,
    );
    const count = async (condition: string): Promise<number> => {
      const counted = filtersWhere(filters, clock, [condition]);
      const [{ total }] = await this.read<{ total: number | string }>(
        COUNT_FINDINGS + counted.where,
        { ...counted.parameters, since },
      );
      return Number(total);
    };
    return {
      groups: groups.map((row) => ({
        status: row.status,
        severity: row.severity,
        total: Number(row.total),
        expired: Number(row.expired),
        overdue: Number(row.overdue),
      })),
      openedSince: await count('first_seen_at >= :since'),
      fixedSince: await count("status = 'fixed' AND fixed_at >= :since"),
    };
  }

  /** The summary's counts from the counts' rows, for a filter by severity at most. */
  private async countedSummary(
    { severities }: FindingFilters,
    clock: FindingClock,
    since: Date,
  ): Promise<{ groups: FindingCountRow[]; openedSince: number; fixedSince: number }> {
    const counts = new FindingCountReads(this.read.bind(this));
    const groups = new Map<string, FindingCountRow>();
    const group = (status: FindingStatus, severity: Severity): FindingCountRow => {
      const key = `${status} ${severity}`;
      let row = groups.get(key);
      if (row === undefined)
        groups.set(key, (row = { status, severity, total: 0, expired: 0, overdue: 0 }));
      return row;
    };
    for (const { status, severity, total } of await counts.byStatus(severities))
      group(status!, severity).total += total;
    for (const { severity, total, overdue } of await counts.expired(
      clock.now,
      clock.overdueBefore,
      severities,
    )) {
      group('accepted', severity).expired += total;
      group('accepted', severity).overdue += overdue;
    }
    for (const { severity, total } of await counts.overdueOpen(clock.overdueBefore, severities))
      group('open', severity).overdue += total;
    return {
      groups: [...groups.values()],
      openedSince: await counts.since('seen', since, severities),
      fixedSince: await counts.since('fixed', since, severities),
    };
  }

  /**
   * The periods of the findings `filters` keep, by their finding's severity: those open just
   * before `start` (opened before it, closed at or after it, or not), then the openings and
   * closings from `start` to the clock's now, by UTC day.
   */
  async trendCounts(
    filters: FindingFilters,
    clock: FindingClock,
    start: Date,
  ): Promise<FindingTrendCounts> {
    if (onlyFilters(filters, ['severities'])) {
      const counts = new FindingCountReads(this.read.bind(this));
      const { atStart, days } = await counts.periods(
        start.toISOString().slice(0, 10),
        filters.severities,
      );
      return {
        atStart,
        openings: days.filter((row) => row.kind === 'opened'),
        closings: days.filter((row) => row.kind === 'closed'),
      };
    }
    const counts = async (
      conditions: string[],
      day: string | null,
    ): Promise<SeverityCountRow[]> => {
      const { where, parameters } = filtersWhere(filters, clock, conditions);
      const grouped = day === null ? 'severity' : `${day}, severity`;
      const rows = await this.read<SeverityCountRow>(
        `SELECT ${day === null ? '' : `${day} AS day, `}severity, COUNT(*) AS total ${PERIODS}${where} GROUP BY ${grouped}`,
        { ...parameters, start },
      );
      return rows.map((row) => ({ ...row, total: Number(row.total) }));
    };
    return {
      atStart: await counts(
        ['p.opened_at < :start', '(p.closed_at IS NULL OR p.closed_at >= :start)'],
        null,
      ),
      openings: await counts(
        ['p.opened_at >= :start', 'p.opened_at <= :now'],
        this.dialect.utcDay('p.opened_at'),
      ),
      closings: await counts(
        ['p.closed_at >= :start', 'p.closed_at <= :now'],
        this.dialect.utcDay('p.closed_at'),
      ),
    };
  }

  /**
   * The findings of these ids, as `manager` (a write unit's, or the service's) sees them. With
   * `lock`, in a write unit, their rows are locked until its commit against other writers (an
   * ingestion fixing one meanwhile), where the transaction does not exclude them already.
   */
  async byIds(
    ids: readonly string[],
    manager: EntityManager = this.dataSource.manager,
    { lock = false }: { lock?: boolean } = {},
  ): Promise<FindingsWithSources> {
    if (ids.length === 0) return { rows: [], sources: new Map() };
    const locked = lock && this.dialect.lockRows !== '' ? ` ${this.dialect.lockRows}` : '';
    const rows = await runNamed<FindingRow>(
      manager,
      `${FINDINGS_SELECT} WHERE id IN (:...ids)${locked}`,
      { ids },
    );
    return { rows, sources: await this.sourcesOf(ids, manager) };
  }

  /** Writes a triage on finding `id` at `now`, through `manager` (the writer's unit). */
  async triage(
    manager: EntityManager,
    id: string,
    triage: FindingTriage,
    now: Date,
  ): Promise<void> {
    await runNamed(
      manager,
      'UPDATE findings SET status = :status, reason = :reason, accepted_until = :acceptedUntil, triaged_by = :triagedBy WHERE id = :id',
      {
        id,
        status: triage.status,
        reason: triage.reason,
        acceptedUntil: triage.acceptedUntil,
        triagedBy: triage.triagedBy === null ? null : JSON.stringify(triage.triagedBy),
      },
    );
    if (triage.period === 'close') {
      await runNamed(
        manager,
        'UPDATE finding_periods SET closed_at = :now WHERE finding_id = :id AND closed_at IS NULL',
        { id, now },
      );
    } else if (triage.period === 'open') {
      await runNamed(
        manager,
        'INSERT INTO finding_periods (finding_id, opened_at, severity) SELECT id, :now, severity FROM findings WHERE id = :id',
        { id, now },
      );
    }
  }

  /** The list's order: missing values (no score, not fixed, no due date) last either way. */
  private orderBy(sort: FindingSortField, descending: boolean, clock: FindingClock): string {
    return `${this.sortExpression(sort, clock)} ${descending ? 'DESC' : 'ASC'} NULLS LAST, id ASC`;
  }

  /**
   * The list's order by `sort`: a column, or for the due date the opening plus its severity's
   * days (NULL for severity none, which has none).
   */
  private sortExpression(sort: FindingSortField, clock: FindingClock): string {
    if (sort !== 'dueAt') return SORT_COLUMNS[sort];
    // Whole numbers of days from the configuration (1 to 3650), written in as such.
    const days = DUE_SEVERITIES.map(
      (severity) => `WHEN '${severity}' THEN ${Math.trunc(clock.dueDays[severity])}`,
    ).join(' ');
    return this.dialect.plusDaysOrder(OPENED, `CASE severity ${days} END`);
  }

  /** A read through the data source's own connection. */
  private read<T>(sql: string, parameters: Record<string, unknown>): Promise<T[]> {
    return runNamed<T>(this.dataSource.manager, sql, parameters);
  }

  /**
   * Every finding of these assets (every status), their sources in position order and their
   * open periods, as `manager` (a merge's unit) sees them.
   */
  async ofAssetsForMerge(
    manager: EntityManager,
    assetIds: readonly string[],
  ): Promise<{ rows: Finding[]; sources: FindingSourceRow[]; periods: FindingPeriod[] }> {
    const rows = await manager
      .getRepository(Finding)
      .find({ where: { assetId: In([...assetIds]) }, order: { id: 'ASC' } });
    if (rows.length === 0) return { rows, sources: [], periods: [] };
    const sources = await runNamed<FindingSourceRow>(
      manager,
      `SELECT s.finding_id, s.source, s.position FROM finding_sources s JOIN findings f ON f.id = s.finding_id WHERE f.asset_id IN (:...assetIds) ORDER BY s.finding_id, s.position`,
      { assetIds },
    );
    const periods = await manager
      .getRepository(FindingPeriod)
      .createQueryBuilder('p')
      .innerJoin('p.finding', 'f')
      .where('f.asset_id IN (:...assetIds)', { assetIds })
      .getMany();
    return { rows, sources, periods };
  }

  /**
   * A finding a merge keeps, moved to its asset (`assetId`) with the sightings of the findings
   * folded into it, in the unit of `manager`. The triggers of finding_counts move its counts.
   */
  async fold(
    manager: EntityManager,
    id: string,
    changes: Pick<Finding, 'assetId' | 'firstSeenAt' | 'lastSeenAt'>,
  ): Promise<void> {
    await manager.getRepository(Finding).update({ id }, changes);
  }

  /**
   * The open periods of finding `id` replaced by `periods` (a merge's, joined with those of the
   * findings folded into it), under its `severity` (as its row holds it), in the unit of
   * `manager`. The triggers of finding_counts move the trend's counts.
   */
  async replacePeriods(
    manager: EntityManager,
    { id, severity }: Pick<Finding, 'id' | 'severity'>,
    periods: readonly Pick<FindingPeriod, 'openedAt' | 'closedAt'>[],
  ): Promise<void> {
    const table = manager.getRepository(FindingPeriod);
    await table.delete({ findingId: id });
    if (periods.length > 0)
      await table.insert(periods.map((period) => ({ ...period, findingId: id, severity })));
  }

  /** Adds feeds to findings' `sources`, each at its position, in the unit of `manager`. */
  async addSources(
    manager: EntityManager,
    rows: readonly { findingId: string; source: string; position: number }[],
  ): Promise<void> {
    if (rows.length === 0) return;
    await manager.getRepository(FindingSource).insert([...rows]);
  }

  /** The `sources` of these findings, in position order, by finding id. */
  private async sourcesOf(
    ids: readonly string[],
    manager: EntityManager,
  ): Promise<Map<string, string[]>> {
    if (ids.length === 0) return new Map();
    const rows = await runNamed<FindingSourceRow>(
      manager,
      `${FINDING_SOURCES_SELECT} WHERE finding_id IN (:...ids) ORDER BY finding_id, position`,
      { ids },
    );
    return sourcesByFinding(rows);
  }
}
