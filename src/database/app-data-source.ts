import { DataSource, type Migration } from 'typeorm';
import { AsyncLock } from './async-lock.js';
import { removePrivateDatabase } from './database-options.js';
import { SqliteWriteGate } from './sqlite-write-gate.subscriber.js';

// Any constant not used by another advisory lock of the service (ingestion uses 7402151001).
const MIGRATION_LOCK_ID = 7402151000;

const NAIVE_TIMESTAMP_TYPES = new Set<unknown>([Date, 'timestamp', 'timestamp without time zone']);

/**
 * The service's DataSource. On PostgreSQL every timestamp column is `timestamptz`: entities are
 * shared by both databases and declare their dates portably, which TypeORM would map to a
 * timestamp without time zone there, so that values would depend on the process's time zone.
 */
export class AppDataSource extends DataSource {
  /**
   * Held by an ingestion for its whole transaction. On SQLite, every other write waits for it
   * (SqliteWriteGate).
   */
  readonly exclusiveWrites = new AsyncLock();

  /**
   * Applies pending migrations. On PostgreSQL, replicas starting together (or a migration Job
   * beside them) take turns on an advisory lock; whoever comes second finds nothing left to do.
   */
  async migrate(): Promise<Migration[]> {
    if (this.options.type !== 'postgres') return this.runMigrations();
    const runner = this.createQueryRunner();
    try {
      await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
      return await this.runMigrations();
    } finally {
      await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => {});
      await runner.release();
    }
  }

  override async initialize(): Promise<this> {
    await super.initialize();
    if (this.options.type === 'better-sqlite3') {
      this.subscribers.push(new SqliteWriteGate(this.exclusiveWrites));
    }
    return this;
  }

  override async destroy(): Promise<void> {
    await super.destroy();
    if (this.options.type === 'better-sqlite3') removePrivateDatabase(this.options.database);
  }

  protected override async buildMetadatas(): Promise<void> {
    await super.buildMetadatas();
    if (this.options.type !== 'postgres') return;
    for (const entity of this.entityMetadatas) {
      for (const column of entity.columns) {
        if (NAIVE_TIMESTAMP_TYPES.has(column.type)) column.type = 'timestamptz';
      }
    }
  }
}
