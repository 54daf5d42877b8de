import type Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import type { DataSourceOptions } from 'typeorm';
import type { DatabaseConfig } from '../config/app-config.js';
import { ENTITIES } from './entities.js';
import { POSTGRES_MIGRATIONS } from './migrations/postgres/index.js';
import { SQLITE_MIGRATIONS } from './migrations/sqlite/index.js';

/** How long a SQLite write waits for another connection's lock before failing. */
export const SQLITE_BUSY_TIMEOUT_MS = 10_000;

const PRIVATE_DIR_PREFIX = 'asset-map-memory-';

/**
 * `sqlite::memory:` is a database of the process's own that goes with it. It is kept in a
 * file of a temporary directory, not in SQLite's memory: an in-memory database exists on one
 * connection only, and the ingestion needs a connection of its own (in a worker thread) so
 * that requests served meanwhile see the state before it, as they do with a file.
 */
function privateDatabaseFile(): string {
  return join(mkdtempSync(join(tmpdir(), PRIVATE_DIR_PREFIX)), 'assetmap.sqlite');
}

/** Removes the database privateDatabaseFile made (its log and shared memory with it). */
export function removePrivateDatabase(file: string): void {
  const dir = dirname(file);
  if (basename(dir).startsWith(PRIVATE_DIR_PREFIX)) rmSync(dir, { recursive: true, force: true });
}

/**
 * TypeORM options for either database. The schema comes only from migrations, one set per
 * database because their DDL differs; both are generated from the same entities.
 */
export function databaseOptions(database: DatabaseConfig): DataSourceOptions {
  const common = { entities: ENTITIES, synchronize: false, migrationsRun: false } as const;
  if (database.kind === 'sqlite') {
    const temporary = database.file === ':memory:';
    return {
      ...common,
      type: 'better-sqlite3',
      database: temporary ? privateDatabaseFile() : database.file,
      migrations: SQLITE_MIGRATIONS,
      // Readers never wait for the writer in WAL mode.
      enableWAL: true,
      timeout: SQLITE_BUSY_TIMEOUT_MS,
      // A database that goes with the process needs no durability: no waiting for the disk.
      ...(temporary && {
        prepareDatabase: (db: Database.Database) => void db.pragma('synchronous = OFF'),
      }),
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
