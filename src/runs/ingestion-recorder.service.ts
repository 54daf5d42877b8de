import { Injectable, Logger } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ConflictError } from '../common/errors/conflict.error.js';
import { UnprocessableError } from '../common/errors/unprocessable.error.js';
import { describeError } from '../common/filters/all-exceptions.filter.js';
import { UnreadBody } from '../common/http/unread-body.js';
import type { Principal } from '../common/principal.js';
import type { IngestResponse } from '../ingest/dto/ingest-response.dto.js';
import type { IngestHooks, IngestRunOptions } from '../ingest/ingest-hooks.js';
import {
  IDEMPOTENCY_KEY_HEADER,
  IdempotencyKeysService,
  idempotencyKeyOf,
  keyedRequestOf,
  type ClaimedKey,
} from './idempotency-keys.service.js';
import { RunsService, type RunEnd, type RunRecord } from './runs.service.js';

/** The answer to give, byte for byte. */
export interface RecordedAnswer {
  status: number;
  body: string;
  /** A kept answer given again: nothing ran. */
  replayed: boolean;
}

/** The ingestion itself, given the body (read) and the hooks that follow it. */
export type Ingestion = (raw: unknown, hooks: IngestHooks) => Promise<IngestResponse>;

/**
 * Wraps one ingestion request in its run and, with an Idempotency-Key, its kept answer. Every
 * request that reaches it (past authentication and the role check) is a run, recorded running
 * before its body is read, then succeeded, rejected (4xx) or failed (5xx); a replay of a kept
 * answer runs nothing and leaves no run.
 */
@Injectable()
export class IngestionRecorder {
  private readonly logger = new Logger('Runs');

  constructor(
    private readonly runs: RunsService,
    private readonly keys: IdempotencyKeysService,
  ) {}

  /** Errors are thrown on, for AllExceptionsFilter to answer, once recorded. */
  async record(
    caller: Principal,
    request: FastifyRequest,
    body: unknown,
    ingestion: Ingestion,
  ): Promise<RecordedAnswer> {
    const run = await this.runs.start(caller, request.id);
    const options: Partial<IngestRunOptions> = {};
    let bodyBytes: number | null = null;
    let claimed: ClaimedKey | null = null;
    // Set once the run's success and its kept answer are written in the ingestion's transaction.
    const committed: { answer: string | null } = { answer: null };
    const end = (status: RunEnd['status'], fields: Partial<RunEnd>): RunEnd => ({
      status,
      options,
      bodyBytes,
      stats: null,
      error: null,
      ...fields,
    });
    try {
      const key = idempotencyKeyOf(request.headers);
      const bytes = body instanceof UnreadBody ? await body.read() : null;
      bodyBytes = bytes?.length ?? 0;
      if (key !== null) {
        const claim = await this.keys.claim(
          caller,
          key,
          keyedRequestOf(request, bytes ?? Buffer.alloc(0)),
          run.run.id,
        );
        if (claim.outcome === 'replay') {
          await this.runs.discard(run);
          return { status: claim.status, body: claim.answer, replayed: true };
        }
        if (claim.outcome === 'other-body') {
          throw new UnprocessableError(
            `${IDEMPOTENCY_KEY_HEADER} was already used with another body`,
          );
        }
        if (claim.outcome === 'running') {
          throw new ConflictError(
            `the request that first sent this ${IDEMPOTENCY_KEY_HEADER} is still running`,
          );
        }
        claimed = claim.claimed;
      }
      const answer = await ingestion(bytes ?? body, {
        runId: run.run.id,
        requestId: request.id,
        optionsRead: (read) => Object.assign(options, read),
        beforeCommit: async (sql, answer) => {
          const text = JSON.stringify(answer);
          const success = end('succeeded', { stats: { ...answer.stats } });
          await this.runs.finishWithin(sql, run, success);
          if (claimed) await this.keys.keepWithin(sql, claimed, 200, text);
          committed.answer = text;
        },
      });
      this.logSummary(run, options, answer);
      if (committed.answer !== null) {
        return { status: 200, body: committed.answer, replayed: false };
      }
      // A dry run: no transaction to land with.
      const text = JSON.stringify(answer);
      await this.runs.finish(run, end('succeeded', { stats: { ...answer.stats } }));
      if (claimed) await this.keys.keep(claimed, 200, text);
      return { status: 200, body: text, replayed: false };
    } catch (error) {
      await this.recordError(error, request, run, claimed, end);
      throw error;
    }
  }

  /** One line per ingestion that ran, beside its request's line. */
  private logSummary(
    run: RunRecord,
    options: Partial<IngestRunOptions>,
    answer: IngestResponse,
  ): void {
    this.logger.log({
      msg: 'ingestion',
      runId: run.run.id,
      requestId: run.run.requestId,
      format: options.format,
      mode: options.mode,
      source: options.source,
      dryRun: options.dryRun,
      stats: answer.stats,
    });
  }

  private async recordError(
    error: unknown,
    request: FastifyRequest,
    run: RunRecord,
    claimed: ClaimedKey | null,
    end: (status: RunEnd['status'], fields: Partial<RunEnd>) => RunEnd,
  ): Promise<void> {
    const { status, message } = describeError(error, request);
    const failed = status >= 500;
    try {
      await this.runs.finish(run, end(failed ? 'failed' : 'rejected', { error: message }));
      if (claimed && failed) await this.keys.release(claimed);
      else if (claimed) await this.keys.keep(claimed, status, JSON.stringify({ error: message }));
    } catch (recording) {
      // The client still gets the ingestion's own answer.
      this.logger.error(
        `run ${run.run.id}: its end could not be recorded`,
        recording instanceof Error ? recording.stack : String(recording),
      );
    }
  }
}
