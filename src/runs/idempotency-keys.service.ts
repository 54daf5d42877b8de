import { BadRequestException, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { LessThan, Repository } from 'typeorm';
import type { Principal } from '../common/principal.js';
import type { IngestSql } from '../ingest/ingest-sql.js';
import { IdempotencyKey } from './idempotency-key.entity.js';
import { RunsService } from './runs.service.js';
import { updateWithin } from './update-within.js';

/** How long an answer is kept for replays. */
export const KEPT_ANSWER_HOURS = 24;

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';

// 1 to 255 printable ASCII characters, spaces included (a repeated header arrives joined by
// ', ', one value).
const ACCEPTED_KEY = /^[\x20-\x7e]{1,255}$/;

/** A key this request holds: its answer is to be kept, or the key released. */
export interface ClaimedKey {
  caller: string;
  key: string;
  runId: string;
}

/** What a request with an Idempotency-Key finds. */
export type KeyClaim =
  | { outcome: 'claimed'; claimed: ClaimedKey }
  | { outcome: 'replay'; status: number; answer: string }
  | { outcome: 'other-body' }
  | { outcome: 'running' };

/** The request's Idempotency-Key, or null without one; a 400 names the header if it is bad. */
export function idempotencyKeyOf(headers: IncomingHttpHeaders): string | null {
  const value = headers[IDEMPOTENCY_KEY_HEADER.toLowerCase()];
  if (value === undefined) return null;
  if (typeof value !== 'string' || !ACCEPTED_KEY.test(value)) {
    throw new BadRequestException(
      `${IDEMPOTENCY_KEY_HEADER} must be 1 to 255 printable ASCII characters`,
    );
  }
  return value;
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Who a key belongs to: the API key when the request came with one, else the user. */
const callerOf = (caller: Principal) =>
  caller.apiKeyId ? `key:${caller.apiKeyId}` : `user:${caller.userId}`;

/**
 * Idempotency keys and their kept answers, in the database so that every replica shares them.
 * A key is claimed by inserting its row (the primary key lets one request have it); the answer
 * is kept on the row once known, or the row deleted (a 5xx) so that the key may be used again.
 */
@Injectable()
export class IdempotencyKeysService {
  constructor(
    @InjectRepository(IdempotencyKey) private readonly keys: Repository<IdempotencyKey>,
    private readonly runs: RunsService,
  ) {}

  /** Claims `key` for run `runId`, or says what holds it. */
  async claim(caller: Principal, key: string, body: Buffer, runId: string): Promise<KeyClaim> {
    const claimed: ClaimedKey = { caller: callerOf(caller), key, runId };
    const bodyHash = sha256(body);
    const where = { caller: claimed.caller, key };
    await this.deleteExpired();
    // A key freed meanwhile (expired, or its run dead) is taken over; another request may take
    // it first, hence the loop; each turn some request makes progress.
    for (;;) {
      const now = new Date();
      await this.keys
        .createQueryBuilder()
        .insert()
        .values({ ...where, bodyHash, runId, status: null, answer: null, createdAt: now })
        .orIgnore()
        .execute();
      const held = await this.keys.findOneBy(where);
      if (!held) continue;
      if (held.runId === runId) return { outcome: 'claimed', claimed };
      const expired = held.expiresAt !== null && held.expiresAt <= now;
      if (expired || (held.status === null && !(await this.runs.isRunning(held.runId)))) {
        const taken = await this.keys.update(
          { ...where, runId: held.runId },
          { bodyHash, runId, status: null, answer: null, createdAt: now, expiresAt: null },
        );
        if (taken.affected) return { outcome: 'claimed', claimed };
        continue;
      }
      if (held.bodyHash !== bodyHash) return { outcome: 'other-body' };
      if (held.status === null || held.answer === null) return { outcome: 'running' };
      return { outcome: 'replay', status: held.status, answer: held.answer };
    }
  }

  /** Keeps the answer given to the claimed key's request. */
  async keep(claimed: ClaimedKey, status: number, answer: string): Promise<void> {
    await this.keys.update(claimed, { status, answer, expiresAt: keptUntil() });
  }

  /** The same, inside the ingestion's transaction, so that it lands with the ingestion. */
  async keepWithin(
    sql: IngestSql,
    claimed: ClaimedKey,
    status: number,
    answer: string,
  ): Promise<void> {
    await updateWithin<IdempotencyKey>(sql, this.keys.metadata, claimed, {
      status,
      answer,
      expiresAt: keptUntil(),
    });
  }

  /** Frees the key (its request failed on the service's side: a retry should run). */
  async release(claimed: ClaimedKey): Promise<void> {
    await this.keys.delete(claimed);
  }

  /** Deletes the keys whose answer expired (as keys are claimed: the table stays small). */
  private async deleteExpired(): Promise<void> {
    await this.keys.delete({ expiresAt: LessThan(new Date()) });
  }
}

function keptUntil(): Date {
  return new Date(Date.now() + KEPT_ANSWER_HOURS * 3_600_000);
}
