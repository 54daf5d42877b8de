import type BetterSqlite3 from 'better-sqlite3';
import { AsyncLocalStorage } from 'node:async_hooks';
import { DataSource, type EntityManager, type Migration } from 'typeorm';
import type { BetterSqlite3Driver } from 'typeorm/driver/better-sqlite3/BetterSqlite3Driver.js';
import { AsyncLock } from './async-lock.js';
import type { Dialect } from './dialect/dialect.js';
import { PostgresDialect } from './postgres/postgres.dialect.js';
import { SqliteDialect } from './sqlite/sqlite.dialect.js';
import { InventoryWriteGuard } from './writer/inventory-write-guard.subscriber.js';
import { removePrivateDatabase } from './database-options.js';
import { SqliteWriteGate } from './sqlite/sqlite-write-gate.subscriber.js';

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

  /** What differs between the two databases, for this one. */
  readonly dialect: Dialect =
    this.options.type === 'postgres' ? new PostgresDialect(this) : new SqliteDialect(this);

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

  /** Set while a transact() runs: its own statements pass the SQLite write gate. */
  private readonly transacting = new AsyncLocalStorage<true>();

  /**
   * The one transaction of every write but ingestion: `work` writes through the manager it is
   * given, and everything it wrote commits, or none of it does. On SQLite TypeORM shares one
   * connection between requests, so the transaction holds `exclusiveWrites` for its duration:
   * every other write (SqliteWriteGate), ingestion included, waits until it is over, rather
   * than landing inside it (and going with a rollback). Other requests' reads may still run
   * on that connection meanwhile.
   */
  async transact<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    if (this.options.type !== 'better-sqlite3') return this.transaction(work);
    return this.exclusiveWrites.run(() => this.transacting.run(true, () => this.transaction(work)));
  }

  /** Whether the caller runs inside transact() (whose statements the gate lets through). */
  get inTransact(): boolean {
    return this.transacting.getStore() === true;
  }

  /** Set while InventoryWriter runs a write: its statements pass the InventoryWriteGuard. */
  private readonly writing = new AsyncLocalStorage<true>();

  /** Runs `work` as InventoryWriter's: the only code whose writes to the inventory may run. */
  /**
   * Migrations rewrite the inventory's rows as the schema changes, with no history of their
   * own: they run as the writer, from migrate() and from TypeORM's CLI (npm run migration:run,
   * migration:revert) alike.
   */
  override runMigrations(...args: Parameters<DataSource['runMigrations']>): Promise<Migration[]> {
    return this.asWriter(() => super.runMigrations(...args));
  }

  override undoLastMigration(...args: Parameters<DataSource['undoLastMigration']>): Promise<void> {
    return this.asWriter(() => super.undoLastMigration(...args));
  }

  asWriter<T>(work: () => Promise<T>): Promise<T> {
    return this.writing.run(true, work);
  }

  override async initialize(): Promise<this> {
    await super.initialize();
    this.subscribers.push(new InventoryWriteGuard(() => this.writing.getStore() === true));
    if (this.options.type === 'better-sqlite3') {
      this.subscribers.push(
        new SqliteWriteGate(
          this.exclusiveWrites,
          () => this.inTransact,
          () => (this.driver as BetterSqlite3Driver).databaseConnection as BetterSqlite3.Database,
        ),
      );
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
