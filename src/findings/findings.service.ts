import { Inject, Injectable } from '@nestjs/common';
import { ConflictError } from '../common/errors/conflict.error.js';
import { InvalidInputError } from '../common/errors/invalid-input.error.js';
import { NotFoundError } from '../common/errors/not-found.error.js';
import {
  MAX_ACCEPTANCE_DAYS,
  SEVERITIES,
  type FindingSortField,
  type TriageStatus,
} from '../common/field-rules/finding-values.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { actorOf } from '../database/entities/actor-columns.js';
import type { ChangeOrigin } from '../database/history/change-origin.js';
import { AssetsRepository } from '../database/repositories/assets.repository.js';
import {
  FindingsRepository,
  type FindingClock,
  type FindingFilters,
  type FindingKey,
  type FindingTriage,
  type FindingsWithSources,
} from '../database/repositories/findings.repository.js';
import type { FindingRow } from '../database/tables/findings.table.js';
import { InventoryWriter } from '../database/writer/inventory-writer.js';
import type { WriteUnit } from '../database/writer/write-unit.js';
import { EXPORT_BATCH_SIZE, exportText } from '../common/export/export-text.js';
import type { AssetFindingsQueryDto } from './dto/asset-findings-query.dto.js';
import type { ExportFindingsQueryDto } from './dto/export-findings-query.dto.js';
import { FINDING_CSV_COLUMNS } from './finding-csv-columns.js';
import type { FindingFiltersQueryDto } from './dto/finding-filters-query.dto.js';
import {
  toFindingRecord,
  toFindingResponse,
  type FindingRecord,
  type FindingResponse,
} from './dto/finding-response.dto.js';
import type { FindingSummaryResponse } from './dto/finding-summary-response.dto.js';
import type { FindingTrendEntry } from './dto/finding-trend-entry.dto.js';
import type { FindingTrendQueryDto } from './dto/finding-trend-query.dto.js';
import type { ListFindingsQueryDto } from './dto/list-findings-query.dto.js';
import { noCounts, type SeverityCounts } from './dto/severity-counts.dto.js';
import type { TriageFindingDto } from './dto/triage-finding.dto.js';
import { FindingDueDates } from './finding-due-dates.js';

const DAY_MS = 86_400_000;
/** The summary's window of recent openings and fixes. */
const RECENT_DAYS = 30;

const findingNotFound = (id: string) => new NotFoundError(`finding ${id} not found`);

/** One page of findings as the API shows them, and how many the filters keep. */
export interface FindingPage {
  findings: FindingResponse[];
  total: number;
}

/** The filters of a query as the repository takes them. */
function filtersOf(query: FindingFiltersQueryDto & { assetId?: string }): FindingFilters {
  return {
    statuses: query.status,
    severities: query.severity,
    vulnId: query.vulnId,
    assetId: query.assetId,
    source: query.source,
    site: query.site,
    minScore: query.minScore,
    overdue: query.overdue,
  };
}

/** The list's order of a query: its field (default score, descending), and which way. */
function orderOf(query: { sort?: string }): { sort: FindingSortField; descending: boolean } {
  const sort = query.sort ?? '-score';
  return { sort: sort.replace(/^-/, '') as FindingSortField, descending: sort.startsWith('-') };
}

/** `YYYY-MM-DD` of a UTC day. */
const dayOf = (time: Date): string => time.toISOString().slice(0, 10);

/**
 * The findings' reads (list, one, summary, trend) and their triage, which goes through the
 * writer with its change record. Every read takes its time once: what reads as open, what is
 * overdue and each due date are of that instant.
 */
@Injectable()
export class FindingsService {
  private readonly due: FindingDueDates;

  constructor(
    private readonly findings: FindingsRepository,
    private readonly assets: AssetsRepository,
    private readonly writer: InventoryWriter,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.due = new FindingDueDates(config.findingSlaDays);
  }

  /** One page, in the order asked (default: highest score first, then id), and the total. */
  async list(
    query: ListFindingsQueryDto | AssetFindingsQueryDto,
    assetId?: string,
  ): Promise<FindingPage> {
    const clock = this.clock();
    const { rows, sources, total } = await this.findings.page(
      filtersOf({ ...query, ...(assetId !== undefined && { assetId }) }),
      clock,
      {
        ...orderOf(query),
        limit: query.limit,
        offset: query.offset,
      },
    );
    return { findings: this.responses({ rows, sources }, clock.now), total };
  }

  /**
   * Every finding the list's filters keep, in its order, as the text of `format`: read a batch
   * at a time, each starting after the last finding of the one before. What reads as open and
   * overdue is of the moment the export starts.
   */
  export(query: ExportFindingsQueryDto): AsyncGenerator<string> {
    return exportText(query.format ?? 'csv', this.batches(query), FINDING_CSV_COLUMNS);
  }

  private async *batches(query: ExportFindingsQueryDto): AsyncGenerator<FindingResponse[]> {
    const clock = this.clock();
    const filters = filtersOf(query);
    let after: FindingKey | undefined;
    for (;;) {
      const { rows, sources } = await this.findings.batch(filters, clock, {
        ...orderOf(query),
        after,
        limit: EXPORT_BATCH_SIZE,
      });
      if (rows.length === 0) return;
      const last = rows[rows.length - 1];
      after = { key: last.sort_key, id: last.id };
      yield this.responses({ rows, sources }, clock.now);
      if (rows.length < EXPORT_BATCH_SIZE) return;
    }
  }

  /**
   * The asset's findings, every status unless filtered. An asset with none is looked up, so
   * that an unknown id is a 404 rather than an empty list.
   */
  async forAsset(assetId: string, query: AssetFindingsQueryDto): Promise<FindingPage> {
    const page = await this.list(query, assetId);
    if (page.total === 0 && !(await this.assets.exists(assetId))) {
      throw new NotFoundError(`asset ${assetId} not found`);
    }
    return page;
  }

  async get(id: string): Promise<FindingResponse> {
    const [finding] = this.responses(await this.findings.byIds([id]), new Date());
    if (finding === undefined) throw findingNotFound(id);
    return finding;
  }

  /** The counts of the summary: one count grouped by status and severity, two by index. */
  async summary(query: FindingFiltersQueryDto): Promise<FindingSummaryResponse> {
    const clock = this.clock();
    const since = new Date(clock.now.getTime() - RECENT_DAYS * DAY_MS);
    const counts = await this.findings.summaryCounts(filtersOf(query), clock, since);
    const summary: FindingSummaryResponse = {
      open: noCounts(),
      overdue: noCounts(),
      accepted: 0,
      falsePositive: 0,
      fixed: 0,
      openedLast30Days: counts.openedSince,
      fixedLast30Days: counts.fixedSince,
    };
    for (const { status, severity, total, expired, overdue } of counts.groups) {
      summary.overdue[severity] += overdue;
      if (status === 'open') summary.open[severity] += total;
      else if (status === 'accepted') {
        // Accepted until a time now past: open again.
        summary.open[severity] += expired;
        summary.accepted += total - expired;
      } else if (status === 'false_positive') summary.falsePositive += total;
      else summary.fixed += total;
    }
    return summary;
  }

  /**
   * One entry per UTC day, oldest first, today last: the findings open or accepted at the end of
   * the day (today: now). Counted from their open periods: those open when the window starts,
   * then each day's openings less its closings, added up day by day.
   */
  async trend(query: FindingTrendQueryDto): Promise<FindingTrendEntry[]> {
    const clock = this.clock();
    const today = Date.UTC(
      clock.now.getUTCFullYear(),
      clock.now.getUTCMonth(),
      clock.now.getUTCDate(),
    );
    const start = new Date(today - (query.days - 1) * DAY_MS);
    const { atStart, openings, closings } = await this.findings.trendCounts(
      filtersOf(query),
      clock,
      start,
    );
    const running = noCounts();
    for (const { severity, total } of atStart) running[severity] += total;
    // Each day's openings less its closings, by severity.
    const moves = new Map<string, SeverityCounts>();
    const move = (day: string) => {
      let counts = moves.get(day);
      if (counts === undefined) moves.set(day, (counts = noCounts()));
      return counts;
    };
    for (const { day, severity, total } of openings) move(day!)[severity] += total;
    for (const { day, severity, total } of closings) move(day!)[severity] -= total;
    const entries: FindingTrendEntry[] = [];
    for (let index = 0; index < query.days; index++) {
      const date = dayOf(new Date(start.getTime() + index * DAY_MS));
      const moved = moves.get(date);
      if (moved !== undefined)
        for (const severity of SEVERITIES) running[severity] += moved[severity];
      entries.push({ date, open: { ...running } });
    }
    return entries;
  }

  /**
   * Triages a finding as the caller: the body's rules, then the write with its change record
   * (the finding as its records show it, before and after) and its open period; a fixed
   * finding cannot be triaged.
   */
  async triage(origin: ChangeOrigin, id: string, dto: TriageFindingDto): Promise<FindingResponse> {
    const now = new Date();
    const values = triageValues(dto, now);
    // The row as last read: the answer is made from it once the write is done.
    const last: { row?: FindingRow; sources?: string[] } = {};
    const read = async (unit: WriteUnit): Promise<FindingRecord | null> => {
      // Locked: an ingestion cannot fix it between this read and the write.
      const { rows, sources } = await this.findings.byIds([id], unit.manager, { lock: true });
      if (rows.length === 0) return null;
      last.row = rows[0];
      last.sources = sources.get(id) ?? [];
      return toFindingRecord(last.row, last.sources);
    };
    const written = await this.writer.update(origin, 'finding', id, read, async (unit, before) => {
      if (before.status === 'fixed')
        throw new ConflictError(`finding ${id} is fixed: a fixed finding cannot be triaged`);
      // Its asset's vulnerabilities change with its status: the asset's creation record gets
      // its copy first (the finding's own is the writer's).
      await unit.changing('asset', [before.assetId]);
      const triage: FindingTriage = {
        ...values,
        triagedBy: dto.status === 'open' ? null : actorOf(origin.caller),
        period: periodMove(before.status, dto.status),
      };
      await this.findings.triage(unit.manager, id, triage, now);
    });
    if (written === null || last.row === undefined) throw findingNotFound(id);
    return toFindingResponse(last.row, last.sources ?? [], this.due, now);
  }

  /** The instant a read is of, and what it decides. */
  private clock(): FindingClock {
    const now = new Date();
    return { now, overdueBefore: this.due.overdueBefore(now), dueDays: this.due.days };
  }

  private responses({ rows, sources }: FindingsWithSources, now: Date): FindingResponse[] {
    return rows.map((row) => toFindingResponse(row, sources.get(row.id) ?? [], this.due, now));
  }
}

/**
 * A triage's values from its body, under the rules of each status: false_positive needs a
 * reason; accepted a reason and an acceptedUntil in the future, at most MAX_ACCEPTANCE_DAYS
 * ahead; open takes nothing else and clears the triage.
 */
function triageValues(
  dto: TriageFindingDto,
  now: Date,
): Pick<FindingTriage, 'status' | 'reason' | 'acceptedUntil'> {
  const { status, reason, acceptedUntil } = dto;
  if (status === 'open') {
    for (const [field, value] of [
      ['reason', reason],
      ['acceptedUntil', acceptedUntil],
    ] as const) {
      if (value !== undefined)
        throw new InvalidInputError(`${field} is not accepted with status open`);
    }
    return { status, reason: null, acceptedUntil: null };
  }
  if (reason === undefined) throw new InvalidInputError(`reason is required with status ${status}`);
  if (status === 'false_positive') {
    if (acceptedUntil !== undefined)
      throw new InvalidInputError('acceptedUntil is accepted with status accepted only');
    return { status, reason, acceptedUntil: null };
  }
  if (acceptedUntil === undefined)
    throw new InvalidInputError('acceptedUntil is required with status accepted');
  const until = new Date(acceptedUntil);
  if (until <= now) throw new InvalidInputError('acceptedUntil must be in the future');
  if (until.getTime() > now.getTime() + MAX_ACCEPTANCE_DAYS * DAY_MS)
    throw new InvalidInputError(`acceptedUntil must be at most ${MAX_ACCEPTANCE_DAYS} days ahead`);
  return { status, reason, acceptedUntil: until };
}

/**
 * What a status change does to the finding's open periods (the trend's): a false positive
 * closes its open one; undoing one opens a new one; open and accepted are both open periods.
 */
function periodMove(stored: FindingRecord['status'], next: TriageStatus): FindingTriage['period'] {
  if (stored === next) return null;
  if (next === 'false_positive') return 'close';
  if (stored === 'false_positive') return 'open';
  return null;
}
