import { DynamicModule, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AssetsModule } from './assets/assets.module.js';
import { FindingsModule } from './findings/findings.module.js';
import { AuthModule } from './auth/auth.module.js';
import { ChangesModule } from './changes/changes.module.js';
import { AccessGuard } from './common/guards/access.guard.js';
import { AuthenticationGuard } from './common/guards/authentication.guard.js';
import { RateLimitGuard } from './common/guards/rate-limit.guard.js';
import { RateLimitModule } from './common/rate-limit/rate-limit.module.js';
import { KeyRulesGuard } from './common/guards/key-rules.guard.js';
import { RolesGuard } from './common/guards/roles.guard.js';
import type { AppConfig } from './config/app-config.js';
import { ConfigModule } from './config/config.module.js';
import { DatabaseModule } from './database/database.module.js';
import { DiagramsModule } from './diagrams/diagrams.module.js';
import { EventsModule } from './events/events.module.js';
import { GraphModule } from './graph/graph.module.js';
import { HealthModule } from './health/health.module.js';
import { IngestModule } from './ingest/ingest.module.js';
import { MetricsModule } from './metrics/metrics.module.js';
import { RelationsModule } from './relations/relations.module.js';
import { RunsModule } from './runs/runs.module.js';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule.forRoot(config),
        RateLimitModule.forRoot(config),
        ChangesModule,
        AuthModule,
        HealthModule,
        AssetsModule,
        FindingsModule,
        RelationsModule,
        GraphModule,
        DiagramsModule,
        IngestModule,
        RunsModule,
        EventsModule,
        MetricsModule,
      ],
      providers: [
        AuthenticationGuard,
        RateLimitGuard,
        KeyRulesGuard,
        RolesGuard,
        { provide: APP_GUARD, useClass: AccessGuard },
      ],
    };
  }
}
