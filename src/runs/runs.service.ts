import { Injectable, Logger, NotFoundException, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { LessThan, Repository } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { ApiKey } from '../auth/api-key.entity.js';
import type { Principal } from '../common/principal.js';
import type { IngestRunOptions } from '../ingest/ingest-hooks.js';
import type { IngestSql } from '../ingest/ingest-sql.js';
import type { ListRunsQueryDto } from './dto/list-runs-query.dto.js';
import { IngestionRun, type RunStats, type RunStatus } from './ingestion-run.entity.js';
import { RunInstance } from './run-instance.service.js';
import { updateWithin } from './update-within.js';

/** Runs are kept this long, then deleted as later runs start. */
export const RUN_RETENTION_DAYS = 90;

/** The error of a run whose process stopped before it ended. */
export const DEAD_RUN_ERROR = 'the process running this ingestion stopped before it ended';

export interface RunPage {
  runs: IngestionRun[];
  /** Every run matching the filters, before paging. */
  total: number;
}

/** How a run ended, with what it learnt of its request on the way. */
export interface RunEnd {
  status: Exclude<RunStatus, 'running'>;
  options: Partial<IngestRunOptions>;
  bodyBytes: number | null;
  stats: RunStats | null;
  error: string | null;
}

/** The ingestion runs: their record as they start and end, the list, the start-up sweep. */
@Injectable()
export class RunsService implements OnApplicationBootstrap {
  private readonly logger = new Logger('Runs');

  constructor(
    @InjectRepository(IngestionRun) private readonly runs: Repository<IngestionRun>,
    @InjectRepository(ApiKey) private readonly apiKeys: Repository<ApiKey>,
    private readonly instance: RunInstance,
  ) {}

  /** Before the service listens: runs left running by a process that stopped are failed. */
  async onApplicationBootstrap(): Promise<void> {
    const running = await this.runs.find({
      select: { instanceId: true },
      where: { status: 'running' },
    });
    const instances = [...new Set(running.map((run) => run.instanceId))];
    let failed = 0;
    for (const instanceId of instances) {
      if (instanceId !== this.instance.id && (await this.instance.isAlive(instanceId))) continue;
      failed += await this.failRunsOf(instanceId);
    }
    if (failed > 0) this.logger.warn(`${failed} run(s) left running by a stopped process failed`);
  }

  /** One page, newest first, and the filtered total. */
  async list(query: ListRunsQueryDto): Promise<RunPage> {
    const where = {
      ...(query.status !== undefined && { status: query.status }),
      ...(query.source !== undefined && { source: query.source }),
    };
    const [runs, total] = await this.runs.findAndCount({
      where,
      order: { startedAt: 'DESC', id: 'DESC' },
      take: query.limit,
      skip: query.offset,
    });
    return { runs, total };
  }

  async getById(id: string): Promise<IngestionRun> {
    const run = await this.runs.findOneBy({ id });
    if (!run) throw new NotFoundException(`run ${id} not found`);
    return run;
  }

  /**
   * Records a run as running, committed at once, before its body is read. Runs past their
   * retention are deleted here: an indexed delete, nothing to do most of the time.
   */
  async start(caller: Principal, requestId: string): Promise<IngestionRun> {
    const now = new Date();
    await this.runs.delete({
      startedAt: LessThan(new Date(now.getTime() - RUN_RETENTION_DAYS * 86_400_000)),
    });
    const key = caller.apiKeyId
      ? await this.apiKeys.findOne({ select: { prefix: true }, where: { id: caller.apiKeyId } })
      : null;
    const run = this.runs.create({
      id: uuidv7(),
      status: 'running',
      dryRun: null,
      format: 'json',
      mode: null,
      source: null,
      deleteStale: null,
      actorUserId: caller.userId,
      actorEmail: caller.email,
      actorApiKeyId: caller.apiKeyId,
      actorApiKeyPrefix: key?.prefix ?? null,
      requestId,
      bodyBytes: null,
      instanceId: this.instance.id,
      startedAt: now,
      finishedAt: null,
      stats: null,
      error: null,
    });
    await this.runs.insert(run);
    return run;
  }

  /** Records the end of a run. */
  async finish(id: string, end: RunEnd): Promise<void> {
    await this.runs.update({ id }, this.endColumns(end));
  }

  /** The same, inside the ingestion's transaction, so that it lands with the ingestion. */
  async finishWithin(sql: IngestSql, id: string, end: RunEnd): Promise<void> {
    await updateWithin(sql, this.runs.metadata, { id }, this.endColumns(end));
  }

  /** A request that ran nothing (a replay) leaves no run. */
  async discard(id: string): Promise<void> {
    await this.runs.delete({ id });
  }

  /**
   * Whether the run goes on in a live process. A run still marked running whose process is gone
   * is failed here, as the start-up sweep would.
   */
  async isRunning(id: string): Promise<boolean> {
    const run = await this.runs.findOne({
      select: { status: true, instanceId: true },
      where: { id },
    });
    if (run?.status !== 'running') return false;
    if (await this.instance.isAlive(run.instanceId)) return true;
    await this.failRunsOf(run.instanceId);
    return false;
  }

  private async failRunsOf(instanceId: number): Promise<number> {
    const result = await this.runs.update(
      { status: 'running', instanceId },
      { status: 'failed', error: DEAD_RUN_ERROR, finishedAt: new Date() },
    );
    return result.affected ?? 0;
  }

  private endColumns(end: RunEnd): Partial<IngestionRun> {
    const { options } = end;
    return {
      status: end.status,
      format: options.format ?? 'json',
      mode: options.mode ?? null,
      source: options.source ?? null,
      deleteStale: options.deleteStale ?? null,
      dryRun: options.dryRun ?? null,
      bodyBytes: end.bodyBytes,
      finishedAt: new Date(),
      stats: end.stats,
      error: end.error,
    };
  }
}
