import { DynamicModule, Global, Module } from '@nestjs/common';
import { getDataSourceToken, TypeOrmModule } from '@nestjs/typeorm';
import type { AppConfig } from '../config/app-config.js';
import { AppDataSource } from './app-data-source.js';
import { databaseOptions } from './database-options.js';
import { Dialect } from './dialect/dialect.js';
import { REPOSITORIES } from './repositories/repositories.js';
import { InventoryWriter } from './writer/inventory-writer.js';
import { OutboxSignal } from './outbox/outbox-signal.js';

@Global()
@Module({})
export class DatabaseModule {
  /**
   * Connects and, unless RUN_MIGRATIONS=false (a migration Job runs them), applies pending
   * migrations before the application starts serving. Without them it refuses a stale schema.
   */
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          // Fail fast (no retries): an orchestrator restarts the process, a developer sees the error.
          useFactory: () => ({
            ...databaseOptions(config.database),
            retryAttempts: 0,
          }),
          dataSourceFactory: async (options) => {
            const dataSource = await new AppDataSource(options!).initialize();
            if (config.runMigrations) await dataSource.migrate();
            else if (await dataSource.showMigrations()) {
              await dataSource.destroy();
              throw new Error(
                'The database schema is not up to date and RUN_MIGRATIONS=false: run the migrations first (node dist/migrate.js)',
              );
            }
            return dataSource;
          },
        }),
      ],
      providers: [
        {
          provide: Dialect,
          useFactory: (dataSource: AppDataSource) => dataSource.dialect,
          inject: [getDataSourceToken()],
        },
        OutboxSignal,
        InventoryWriter,
        ...REPOSITORIES,
      ],
      exports: [Dialect, OutboxSignal, InventoryWriter, ...REPOSITORIES],
    };
  }
}
