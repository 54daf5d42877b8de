import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { InvalidInputError } from '../common/errors/invalid-input.error.js';
import type { Principal } from '../common/principal.js';
import type { IngestSql } from '../database/ingest-sql.js';
import { IdempotencyKeysRepository } from '../database/repositories/idempotency-keys.repository.js';
import { RunsService } from './runs.service.js';
import { mediaTypeEssence } from '../common/ingest-formats.js';

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
    throw new InvalidInputError(
      `${IDEMPOTENCY_KEY_HEADER} must be 1 to 255 printable ASCII characters`,
    );
  }
  return value;
}

/**
 * What a replay must send again, hashed: the body's media type and query (a scanner body's
 * options) as well as its bytes (inflated, when sent gzipped: a retry may compress anew).
 */
function requestHash(request: KeyedRequest): string {
  const hash = createHash('sha256');
  // A JSON body without a query is hashed alone, as every body was before scanner formats:
  // answers kept then still replay.
  if (request.mediaType !== 'application/json' || request.query !== '') {
    hash.update(`${request.mediaType}\n${request.query}\n`);
  }
  return hash.update(request.body).digest('hex');
}

/** What of a request with a key must be the same for its kept answer to be given again. */
export interface KeyedRequest {
  /** Content-Type without parameters, lower case. */
  mediaType: string;
  /** The query string as sent, without `?`. */
  query: string;
  body: Buffer;
}

/** The parts of `request` a replay must repeat, with its body read (and inflated). */
export function keyedRequestOf(
  request: { headers: IncomingHttpHeaders; url: string },
  body: Buffer,
): KeyedRequest {
  const mediaType = request.headers['content-type'] ?? '';
  const query = request.url.indexOf('?');
  return {
    mediaType: mediaTypeEssence(mediaType),
    query: query < 0 ? '' : request.url.slice(query + 1),
    body,
  };
}

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
    private readonly keys: IdempotencyKeysRepository,
    private readonly runs: RunsService,
  ) {}

  /** Claims `key` for run `runId`, or says what holds it. */
  async claim(
    caller: Principal,
    key: string,
    request: KeyedRequest,
    runId: string,
  ): Promise<KeyClaim> {
    const claimed: ClaimedKey = { caller: callerOf(caller), key, runId };
    const bodyHash = requestHash(request);
    // Expired keys are deleted as keys are claimed: the table stays small.
    await this.keys.deleteExpired();
    // A key freed meanwhile (expired, or its run dead) is taken over; another request may take
    // it first, hence the loop; each turn some request makes progress.
    for (;;) {
      const now = new Date();
      const fresh = { bodyHash, runId, status: null, answer: null, createdAt: now };
      await this.keys.insertIfAbsent({ caller: claimed.caller, key, ...fresh });
      const held = await this.keys.find(claimed.caller, key);
      if (!held) continue;
      if (held.runId === runId) return { outcome: 'claimed', claimed };
      const expired = held.expiresAt !== null && held.expiresAt <= now;
      if (expired || (held.status === null && !(await this.runs.isRunning(held.runId)))) {
        if (await this.keys.takeOver(held, { ...fresh, expiresAt: null })) {
          return { outcome: 'claimed', claimed };
        }
        continue;
      }
      if (held.bodyHash !== bodyHash) return { outcome: 'other-body' };
      if (held.status === null || held.answer === null) return { outcome: 'running' };
      return { outcome: 'replay', status: held.status, answer: held.answer };
    }
  }

  /** Keeps the answer given to the claimed key's request. */
  async keep(claimed: ClaimedKey, status: number, answer: string): Promise<void> {
    await this.keys.keep(claimed, status, answer, keptUntil());
  }

  /** The same, inside the ingestion's transaction, so that it lands with the ingestion. */
  async keepWithin(
    sql: IngestSql,
    claimed: ClaimedKey,
    status: number,
    answer: string,
  ): Promise<void> {
    await this.keys.keepWithin(sql, claimed, status, answer, keptUntil());
  }

  /** Frees the key (its request failed on the service's side: a retry should run). */
  async release(claimed: ClaimedKey): Promise<void> {
    await this.keys.delete(claimed);
  }
}

function keptUntil(): Date {
  return new Date(Date.now() + KEPT_ANSWER_HOURS * 3_600_000);
}
