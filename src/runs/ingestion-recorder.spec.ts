import { describe, expect, it } from '@jest/globals';
import type { FastifyRequest } from 'fastify';
import { InvalidInputError } from '../common/errors/invalid-input.error.js';
import type { Principal } from '../common/principal.js';
import { Role } from '../common/role.js';
import type { IngestResponse } from '../ingest/dto/ingest-response.dto.js';
import type { IngestSql } from '../database/ingest-sql.js';
import type { IdempotencyKeysService, KeyClaim } from './idempotency-keys.service.js';
import { IngestionRecorder, type Ingestion } from './ingestion-recorder.service.js';
import type { RunEnd, RunRecord, RunsService } from './runs.service.js';

const CALLER: Principal = {
  userId: 'user-1',
  email: 'ci@example.com',
  name: 'CI',
  role: Role.Editor,
  apiKeyId: 'key-1',
  apiKeyPrefix: 'amk_0123456789ab',
  key: null,
};
const CLAIMED = { caller: 'key:key-1', key: 'job-1', runId: 'run-1' };
const SQL = {} as IngestSql;

const answer = (dryRun: boolean): IngestResponse =>
  ({
    success: true,
    runId: 'run-1',
    dryRun,
    stats: { assetsCreated: 1, duration: '3ms' },
  }) as unknown as IngestResponse;

/** The recorder over stand-ins that note what it records, where. */
function setUp(key?: string) {
  const calls: [string, ...unknown[]][] = [];
  const runs = {
    start: async () => ({ run: { id: 'run-1' }, writes: Promise.resolve() }),
    finish: async (record: RunRecord, end: RunEnd) =>
      void calls.push(['finish', record.run.id, end]),
    finishWithin: async (sql: IngestSql, record: RunRecord, end: RunEnd) =>
      void calls.push(['finishWithin', record.run.id, end, sql]),
    discard: async (record: RunRecord) => void calls.push(['discard', record.run.id]),
  } as unknown as RunsService;
  const keys = {
    claim: async (): Promise<KeyClaim> => ({ outcome: 'claimed', claimed: CLAIMED }),
    keep: async (_claimed: unknown, status: number, text: string) =>
      void calls.push(['keep', status, text]),
    keepWithin: async (sql: IngestSql, _claimed: unknown, status: number, text: string) =>
      void calls.push(['keepWithin', status, text, sql]),
    release: async () => void calls.push(['release']),
  } as unknown as IdempotencyKeysService;
  const request = {
    id: 'req-1',
    url: '/api/integrations/ingest',
    headers: key ? { 'idempotency-key': key } : {},
    routeOptions: {},
  } as unknown as FastifyRequest;
  const recorder = new IngestionRecorder(runs, keys);
  const record = (ingestion: Ingestion) => recorder.record(CALLER, request, undefined, ingestion);
  return { calls, record };
}

const OPTIONS = {
  format: 'json',
  mode: 'merge',
  source: 'nmap',
  deleteStale: false,
  dryRun: true,
} as const;

describe('IngestionRecorder', () => {
  it('ends a run with a write transaction inside it, with its kept answer', async () => {
    const { calls, record } = setUp('job-1');
    const given = await record(async (_raw, hooks) => {
      hooks.optionsRead?.({ ...OPTIONS, dryRun: false });
      await hooks.beforeCommit?.(SQL, answer(false));
      return answer(false);
    });
    const text = JSON.stringify(answer(false));
    expect(given).toEqual({ status: 200, body: text, replayed: false });
    expect(calls).toEqual([
      [
        'finishWithin',
        'run-1',
        expect.objectContaining({
          status: 'succeeded',
          options: { ...OPTIONS, dryRun: false },
          stats: answer(false).stats,
          error: null,
          bodyBytes: 0,
        }),
        SQL,
      ],
      ['keepWithin', 200, text, SQL],
    ]);
  });

  it('ends a dry run, which has no transaction, once it is answered', async () => {
    const { calls, record } = setUp('job-1');
    const given = await record(async (_raw, hooks) => {
      hooks.optionsRead?.(OPTIONS);
      return answer(true);
    });
    const text = JSON.stringify(answer(true));
    expect(given.body).toBe(text);
    expect(calls).toEqual([
      [
        'finish',
        'run-1',
        expect.objectContaining({
          status: 'succeeded',
          options: OPTIONS,
          stats: answer(true).stats,
        }),
      ],
      ['keep', 200, text],
    ]);
  });

  it('rejects a 4xx with the answer sentence and keeps that answer', async () => {
    const { calls, record } = setUp('job-1');
    const refused = new InvalidInputError('assets[0].ip must be an IP address');
    await expect(
      record(async () => {
        throw refused;
      }),
    ).rejects.toBe(refused);
    const error = 'assets[0].ip must be an IP address';
    expect(calls).toEqual([
      ['finish', 'run-1', expect.objectContaining({ status: 'rejected', error, stats: null })],
      ['keep', 400, JSON.stringify({ error })],
    ]);
  });

  it('fails a 5xx with the answer sentence and frees the key', async () => {
    const { calls, record } = setUp('job-1');
    await expect(
      record(async () => {
        throw new Error('connection lost');
      }),
    ).rejects.toThrow('connection lost');
    expect(calls).toEqual([
      [
        'finish',
        'run-1',
        expect.objectContaining({
          status: 'failed',
          error: 'Internal server error (request req-1)',
        }),
      ],
      ['release'],
    ]);
  });

  it('keeps nothing without a key', async () => {
    const { calls, record } = setUp();
    await record(async () => answer(true));
    expect(calls.map(([call]) => call)).toEqual(['finish']);
  });
});
