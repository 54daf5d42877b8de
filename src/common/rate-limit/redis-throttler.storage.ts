import { Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';

// The package's index does not export the record type; taken from the interface it belongs to.
type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

const KEY_PREFIX = 'assetmap:ratelimit:';
const WARNING_INTERVAL_MS = 30_000;

/**
 * The same sliding window as @nestjs/throttler's in-memory storage, kept in Redis so that every
 * replica counts against one budget: a sorted set of hit expiry times per key, pruned, counted
 * and added to in one atomic script, on Redis's clock (replicas' clocks may differ).
 * Returns: hits including this one, 1 when refused, milliseconds until the refusal ends.
 */
const INCREMENT = `
local key, blockKey = KEYS[1], KEYS[2]
local ttl, limit, block, member = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4]
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
local hits = redis.call('ZCARD', key)
local blocked = redis.call('PTTL', blockKey)
if blocked > 0 then return {hits + 1, 1, blocked} end
if hits >= limit then
  if block > 0 then
    redis.call('SET', blockKey, '1', 'PX', block)
    return {hits + 1, 1, block}
  end
  local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
  return {hits + 1, 1, tonumber(oldest[2]) - now}
end
redis.call('ZADD', key, now + ttl, member)
redis.call('PEXPIRE', key, ttl)
return {hits + 1, 0, 0}
`;

/**
 * Rate-limit counters shared by every replica (REDIS_URL). When Redis cannot be reached the
 * limit is not enforced rather than the API refused: a warning says so, at most every 30 s.
 */
export class RedisThrottlerStorage
  implements ThrottlerStorage, OnModuleInit, OnApplicationShutdown
{
  private readonly logger = new Logger('RateLimit');
  private readonly redis: Redis;
  private lastWarning = 0;

  constructor(url: string) {
    this.redis = new Redis(url, {
      lazyConnect: true,
      // Fail at once instead of queueing while disconnected: requests must not wait on Redis.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: 2_000,
    });
    this.redis.on('error', (error: Error) => this.warn(error));
    this.redis.defineCommand('assetMapRateLimit', { numberOfKeys: 2, lua: INCREMENT });
  }

  async onModuleInit(): Promise<void> {
    try {
      await this.redis.connect();
    } catch (error) {
      // ioredis goes on reconnecting in the background.
      this.warn(error as Error);
    }
  }

  async increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
  ): Promise<ThrottlerStorageRecord> {
    const redisKey = KEY_PREFIX + key;
    try {
      const [totalHits, refused, retryMs] = (await (
        this.redis as Redis & { assetMapRateLimit(...args: unknown[]): Promise<number[]> }
      ).assetMapRateLimit(
        redisKey,
        `${redisKey}:blocked`,
        ttl,
        limit,
        blockDuration,
        randomUUID(),
      )) as [number, number, number];
      return {
        totalHits,
        timeToExpire: Math.ceil(ttl / 1000),
        isBlocked: refused === 1,
        timeToBlockExpire: refused === 1 ? Math.max(1, Math.ceil(retryMs / 1000)) : 0,
      };
    } catch (error) {
      this.warn(error as Error);
      return {
        totalHits: 0,
        timeToExpire: Math.ceil(ttl / 1000),
        isBlocked: false,
        timeToBlockExpire: 0,
      };
    }
  }

  async onApplicationShutdown(): Promise<void> {
    // After the HTTP server has closed: no request needs Redis any more.
    if (this.redis.status === 'ready') await this.redis.quit();
    else this.redis.disconnect();
  }

  private warn(error: Error): void {
    const now = Date.now();
    if (now - this.lastWarning < WARNING_INTERVAL_MS) return;
    this.lastWarning = now;
    this.logger.warn(`Redis unavailable, rate limits not enforced: ${error.message}`);
  }
}
