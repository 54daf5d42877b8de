import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { DatabaseConfig } from '../config/app-config.js';
import { AppDataSource } from './app-data-source.js';
import { databaseOptions } from './database-options.js';

@Module({})
export class DatabaseModule {
  /** Connects and applies pending migrations before the application starts serving. */
  static forRoot(database: DatabaseConfig): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          // Fail fast (no retries): an orchestrator restarts the process, a developer sees the error.
          useFactory: () => ({
            ...databaseOptions(database),
            migrationsRun: true,
            retryAttempts: 0,
          }),
          dataSourceFactory: (options) => new AppDataSource(options!).initialize(),
        }),
      ],
    };
  }
}
