import { DynamicModule, Module } from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';
import type { AppConfig } from '../../config/app-config.js';
import { GENERAL_THROTTLER, LOGIN_THROTTLER } from '../guards/rate-limit.guard.js';
import { MemoryThrottlerStorage } from './memory-throttler.storage.js';
import { RedisThrottlerStorage } from './redis-throttler.storage.js';

/** The two budgets of CONTRACT section 9, counted in this process or, with REDIS_URL, in Redis. */
@Module({})
export class RateLimitModule {
  static forRoot(config: AppConfig): DynamicModule {
    const window = config.rateLimit.windowSeconds * 1000;
    const storage = config.redisUrl
      ? new RedisThrottlerStorage(config.redisUrl)
      : new MemoryThrottlerStorage();
    return {
      module: RateLimitModule,
      // Registered as a provider too, so that Nest runs its lifecycle hooks.
      providers: [{ provide: storage.constructor, useValue: storage }],
      imports: [
        ThrottlerModule.forRoot({
          storage,
          // blockDuration 0: a sliding window, no extra penalty once the window has room again.
          throttlers: [
            {
              name: GENERAL_THROTTLER,
              ttl: window,
              limit: config.rateLimit.limit,
              blockDuration: 0,
            },
            {
              name: LOGIN_THROTTLER,
              ttl: window,
              limit: config.rateLimit.loginLimit,
              blockDuration: 0,
            },
          ],
        }),
      ],
      exports: [ThrottlerModule],
    };
  }
}
