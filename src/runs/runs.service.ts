import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { timeOrderedId } from '../common/ids/time-ordered-id.js';
import { actorOf } from '../database/entities/actor-columns.js';
import { NotFoundError } from '../common/errors/not-found.error.js';
import type { Principal } from '../common/principal.js';
import type { IngestRunOptions } from '../ingest/ingest-hooks.js';
import type { IngestSql } from '../database/ingest-sql.js';
import { RunsRepository, type RunPage } from '../database/repositories/runs.repository.js';
import type { ListRunsQueryDto } from './dto/list-runs-query.dto.js';
import type {
  IngestionRun,
  RunStats,
  RunStatus,
} from '../database/entities/ingestion-run.entity.js';
import { RunInstance } from './run-instance.service.js';
import type { OutboxEvent } from '../database/outbox/outbox-event.js';
import type { EventType } from '../database/outbox/event-types.js';
import { OutboxSignal } from '../database/outbox/outbox-signal.js';
import { OutboxWrites } from '../database/repositories/outbox/outbox-writes.js';
import { WebhooksRepository } from '../database/repositories/webhooks.repository.js';
import { toRunResponse } from './dto/run-response.dto.js';

/** A run's end as an event (run.succeeded, run.rejected, run.failed); none for a dry run. */
function runEvent(run: IngestionRun): OutboxEvent | null {
  if (run.dryRun === true || run.status === 'running') return null;
  return {
    type: `run.${run.status}` as EventType,
    data: toRunResponse(run),
    sources: run.source === null ? [] : [run.source],
    site: null,
    score: null,
  };
}

/** Runs are kept this long, then deleted as later runs start. */
export const RUN_RETENTION_DAYS = 90;

/** The error of a run whose process stopped before it ended. */
export const DEAD_RUN_ERROR = 'the process running this ingestion stopped before it ended';

/**
 * A run being recorded: its row as last written, and the writes of it still on their way, in
 * order (see RunsService.written).
 */
export interface RunRecord {
  run: IngestionRun;
  writes: Promise<void>;
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
    private readonly runs: RunsRepository,
    private readonly instance: RunInstance,
    private readonly webhooks: WebhooksRepository,
    private readonly signal: OutboxSignal,
  ) {}

  /** Before the service listens: runs left running by a process that stopped are failed. */
  async onApplicationBootstrap(): Promise<void> {
    const instances = [...new Set(await this.runs.runningInstances())];
    let failed = 0;
    for (const instanceId of instances) {
      if (instanceId !== this.instance.id && (await this.instance.isAlive(instanceId))) continue;
      failed += await this.failRunsOf(instanceId);
    }
    if (failed > 0) this.logger.warn(`${failed} run(s) left running by a stopped process failed`);
  }

  /** One page, newest first, and the filtered total. */
  list(query: ListRunsQueryDto): Promise<RunPage> {
    return this.runs.list({ status: query.status, source: query.source }, query);
  }

  async getById(id: string): Promise<IngestionRun> {
    const run = await this.runs.findById(id);
    if (!run) throw new NotFoundError(`run ${id} not found`);
    return run;
  }

  /**
   * Records a run as running, committed at once, before its body is read. Runs past their
   * retention are deleted here: an indexed delete, nothing to do most of the time.
   */
  async start(caller: Principal, requestId: string): Promise<RunRecord> {
    const now = new Date();
    const run: IngestionRun = {
      id: timeOrderedId(),
      status: 'running',
      dryRun: null,
      format: 'json',
      mode: null,
      source: null,
      deleteStale: null,
      // The key's prefix as the caller signed in with it.
      actor: actorOf(caller),
      requestId,
      bodyBytes: null,
      instanceId: this.instance.id,
      startedAt: now,
      finishedAt: null,
      stats: null,
      error: null,
    };
    const record: RunRecord = { run, writes: Promise.resolve() };
    await this.written(record, async () => {
      await this.runs.deleteStartedBefore(
        new Date(now.getTime() - RUN_RETENTION_DAYS * 86_400_000),
      );
      // Ignored when the end was written first (SQLite, see written).
      await this.runs.insertIfAbsent(run);
    });
    return record;
  }

  /** Records the end of a run, and sends its event. */
  async finish(record: RunRecord, end: RunEnd): Promise<void> {
    record.run = { ...record.run, ...this.endColumns(end) };
    const { id, ...changes } = record.run;
    const event = runEvent(record.run);
    await this.written(record, async () => {
      await this.runs.update(id, changes);
      if (event && (await this.webhooks.emit([event], record.run.finishedAt!)) > 0) {
        this.signal.notify();
      }
    });
  }

  /**
   * The same, inside the ingestion's transaction, so that it lands with the ingestion: the whole
   * row, since its first write may still be waiting (SQLite, see written).
   */
  async finishWithin(sql: IngestSql, record: RunRecord, end: RunEnd): Promise<void> {
    const run = { ...record.run, ...this.endColumns(end) };
    await this.runs.upsertWithin(sql, run);
    const event = runEvent(run);
    if (event) {
      const outbox = new OutboxWrites(sql);
      await outbox.write(await outbox.subscriptions(), [event], run.finishedAt!);
    }
    record.run = run;
  }

  /**
   * Runs `write` after the run's earlier writes. On SQLite a write waits while an ingestion
   * holds the database's one writer lock (SqliteWriteGate): the request then goes on without
   * waiting for its run's record, which lands, in order, once that ingestion is over. So a dry
   * run still answers while another ingestion writes; and a real run, which waits for that
   * ingestion anyway, writes its end in its own transaction, over a first write still to come.
   */
  private async written(record: RunRecord, write: () => Promise<void>): Promise<void> {
    const writes = record.writes.then(write);
    record.writes = writes.catch((error: unknown) => {
      this.logger.error(
        `run ${record.run.id}: its record could not be written`,
        error instanceof Error ? error.stack : String(error),
      );
    });
    if (!this.runs.writesWait) await writes;
  }

  /** A request that ran nothing (a replay) leaves no run. */
  async discard(record: RunRecord): Promise<void> {
    await this.written(record, () => this.runs.delete(record.run.id));
  }

  /**
   * Whether the run goes on in a live process. A run still marked running whose process is gone
   * is failed here, as the start-up sweep would.
   */
  async isRunning(id: string): Promise<boolean> {
    const run = await this.runs.findStatus(id);
    if (run?.status !== 'running') return false;
    if (await this.instance.isAlive(run.instanceId)) return true;
    await this.failRunsOf(run.instanceId);
    return false;
  }

  private async failRunsOf(instanceId: number): Promise<number> {
    return this.runs.failRunningOf(instanceId, DEAD_RUN_ERROR, new Date());
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
