import type { OnApplicationShutdown } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import { performance } from 'node:perf_hooks';

// The package's index does not export the record type; taken from the interface it belongs to.
type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

const SWEEP_INTERVAL_MS = 60_000;
// Below this many expired entries, compacting would cost more than it frees.
const MIN_COMPACTION = 1024;

const seconds = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));

/**
 * The hits one key has inside its window, as a queue of expiry times, oldest first; hits that
 * expire in the same millisecond share an entry. A key's throttler has one ttl, so its expiry
 * times never decrease and the expired ones are always at the head.
 */
class Hits {
  private readonly expiries: number[] = [];
  private readonly counts: number[] = [];
  private head = 0;
  total = 0;
  blockedUntil = 0;

  /** Drops the hits expired by `now`: amortised constant time per hit. */
  prune(now: number): void {
    while (this.head < this.expiries.length && this.expiries[this.head] <= now) {
      this.total -= this.counts[this.head++];
    }
    if (this.head >= MIN_COMPACTION && this.head * 2 >= this.expiries.length) {
      this.expiries.splice(0, this.head);
      this.counts.splice(0, this.head);
      this.head = 0;
    }
  }

  add(expiry: number): void {
    const last = this.expiries.length - 1;
    if (last >= this.head && this.expiries[last] === expiry) this.counts[last]++;
    else {
      this.expiries.push(expiry);
      this.counts.push(1);
    }
    this.total++;
  }

  /** When the oldest hit leaves the window (only asked while there is one). */
  get oldest(): number {
    return this.expiries[this.head];
  }
}

/**
 * Rate-limit counters in this process, without REDIS_URL: the same sliding window as
 * RedisThrottlerStorage (refused requests are not counted; a refusal lasts until the oldest hit
 * leaves the window). Replaces @nestjs/throttler's own storage, which filters every hit of the
 * window on each request and spreads them into Math.min on a refusal: with a large RATE_LIMIT,
 * each request cost time in proportion to the budget, and a refusal past ~120,000 hits threw
 * (a 500 instead of a 429).
 */
export class MemoryThrottlerStorage implements ThrottlerStorage, OnApplicationShutdown {
  private readonly keys = new Map<string, Hits>();
  private readonly sweeper: NodeJS.Timeout;

  /** `now`: a clock in milliseconds that never goes back (tests pass their own). */
  constructor(private readonly now: () => number = () => Math.floor(performance.now())) {
    // Forgets idle clients, so that the map does not grow with every address ever seen.
    this.sweeper = setInterval(() => this.sweep(), SWEEP_INTERVAL_MS).unref();
  }

  increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
  ): Promise<ThrottlerStorageRecord> {
    const now = this.now();
    let hits = this.keys.get(key);
    if (!hits) {
      hits = new Hits();
      this.keys.set(key, hits);
    }
    hits.prune(now);
    const timeToExpire = Math.ceil(ttl / 1000);
    const refuse = (retryMs: number): Promise<ThrottlerStorageRecord> =>
      Promise.resolve({
        totalHits: hits.total + 1,
        timeToExpire,
        isBlocked: true,
        timeToBlockExpire: seconds(retryMs),
      });
    if (hits.blockedUntil > now) return refuse(hits.blockedUntil - now);
    if (hits.total >= limit) {
      if (blockDuration <= 0) return refuse(hits.oldest - now);
      hits.blockedUntil = now + blockDuration;
      return refuse(blockDuration);
    }
    hits.add(now + ttl);
    return Promise.resolve({
      totalHits: hits.total,
      timeToExpire,
      isBlocked: false,
      timeToBlockExpire: 0,
    });
  }

  /** How many clients are remembered (for the tests). */
  get size(): number {
    return this.keys.size;
  }

  sweep(): void {
    const now = this.now();
    for (const [key, hits] of this.keys) {
      hits.prune(now);
      if (hits.total === 0 && hits.blockedUntil <= now) this.keys.delete(key);
    }
  }

  onApplicationShutdown(): void {
    clearInterval(this.sweeper);
    this.keys.clear();
  }
}
