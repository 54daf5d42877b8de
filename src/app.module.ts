import { DynamicModule, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import { AssetsModule } from './assets/assets.module.js';
import { AuthModule } from './auth/auth.module.js';
import { AccessGuard } from './common/guards/access.guard.js';
import { AuthenticationGuard } from './common/guards/authentication.guard.js';
import {
  GENERAL_THROTTLER,
  LOGIN_THROTTLER,
  RateLimitGuard,
} from './common/guards/rate-limit.guard.js';
import { RolesGuard } from './common/guards/roles.guard.js';
import type { AppConfig } from './config/app-config.js';
import { ConfigModule } from './config/config.module.js';
import { DatabaseModule } from './database/database.module.js';
import { DiagramsModule } from './diagrams/diagrams.module.js';
import { HealthModule } from './health/health.module.js';
import { IngestModule } from './ingest/ingest.module.js';
import { RelationsModule } from './relations/relations.module.js';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    const window = config.rateLimit.windowSeconds * 1000;
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule.forRoot(config.database),
        ThrottlerModule.forRoot({
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
        AuthModule,
        HealthModule,
        AssetsModule,
        RelationsModule,
        DiagramsModule,
        IngestModule,
      ],
      providers: [
        AuthenticationGuard,
        RateLimitGuard,
        RolesGuard,
        { provide: APP_GUARD, useClass: AccessGuard },
      ],
    };
  }
}
