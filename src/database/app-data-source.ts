import type Database from 'better-sqlite3';
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

  /**
   * Runs statements (SQL in the database's placeholders, with their values, as a query
   * builder's getQueryAndParameters gives them) in one transaction, in order, and answers how
   * many rows the first changed; when it changes none, the others are not run. On SQLite they
   * run at once on the service's connection, without a turn of the event loop in between:
   * TypeORM shares that one connection between requests, whose statements would otherwise land
   * inside the transaction (and a rollback would take them too).
   */
  async writeTogether(statements: [sql: string, values: unknown[]][]): Promise<number> {
    const [[firstSql, firstValues], ...rest] = statements;
    if (this.options.type === 'better-sqlite3') {
      // As SqliteWriteGate makes every other write wait for an ingestion.
      await this.exclusiveWrites.idle();
      const db = (this.driver as unknown as { databaseConnection: Database.Database })
        .databaseConnection;
      return db.transaction(() => {
        const changed = db.prepare(firstSql).run(...firstValues).changes;
        if (changed > 0) for (const [sql, values] of rest) db.prepare(sql).run(...values);
        return changed;
      })();
    }
    const runner = this.createQueryRunner();
    try {
      await runner.startTransaction();
      const changed = (await runner.query(firstSql, firstValues, true)).affected ?? 0;
      if (changed > 0) for (const [sql, values] of rest) await runner.query(sql, values);
      await runner.commitTransaction();
      return changed;
    } catch (error) {
      if (runner.isTransactionActive) await runner.rollbackTransaction();
      throw error;
    } finally {
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
