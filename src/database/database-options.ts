import type { DataSourceOptions } from 'typeorm';
import type { DatabaseConfig } from '../config/app-config.js';
import { ENTITIES } from './entities.js';
import { POSTGRES_MIGRATIONS } from './migrations/postgres/index.js';
import { SQLITE_MIGRATIONS } from './migrations/sqlite/index.js';

/** How long a SQLite write waits for another connection's lock before failing. */
export const SQLITE_BUSY_TIMEOUT_MS = 10_000;

/**
 * TypeORM options for either database. The schema comes only from migrations, one set per
 * database because their DDL differs; both are generated from the same entities.
 */
export function databaseOptions(database: DatabaseConfig): DataSourceOptions {
  const common = { entities: ENTITIES, synchronize: false, migrationsRun: false } as const;
  if (database.kind === 'sqlite') {
    return {
      ...common,
      type: 'better-sqlite3',
      database: database.file,
      migrations: SQLITE_MIGRATIONS,
      // Readers never wait for the writer in WAL mode; not available for an in-memory database.
      enableWAL: database.file !== ':memory:',
      timeout: SQLITE_BUSY_TIMEOUT_MS,
    };
  }
  return {
    ...common,
    type: 'postgres',
    url: database.url,
    migrations: POSTGRES_MIGRATIONS,
    extra: { max: 10 },
  };
}
