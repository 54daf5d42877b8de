import { ForbiddenException, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import Database from 'better-sqlite3';
import { performance } from 'node:perf_hooks';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { RawJsonBody } from '../common/http/raw-json-body.js';
import type { Principal } from '../common/principal.js';
import { Role, roleIncludes } from '../common/role.js';
import { AppDataSource } from '../database/app-data-source.js';
import { SQLITE_BUSY_TIMEOUT_MS } from '../database/database-options.js';
import { checkpointInBackground } from '../database/sqlite-checkpoint.js';
import type { IngestResponse } from './dto/ingest-response.dto.js';
import { parseIngestPayload, type IngestPayload } from './ingest-payload.js';
import { openJsonInWorker } from './json-worker.js';
import { IngestRun } from './ingest-run.js';
import { PostgresIngestSql, SqliteIngestSql, type IngestSql } from './ingest-sql.js';

// Serializes ingestions across every process sharing a PostgreSQL database.
const POSTGRES_INGEST_LOCK = 7_402_151_001;

@Injectable()
export class IngestService {
  constructor(@InjectDataSource() private readonly dataSource: AppDataSource) {}

  /** `raw` is the body as the HTTP layer hands it over (unparsed), or an already parsed value. */
  async ingest(caller: Principal, raw: unknown): Promise<IngestResponse> {
    const started = performance.now();
    const payload = await this.readPayload(caller, raw);
    // One ingestion at a time in this process; the transaction also serializes across processes.
    const counts = await this.dataSource.exclusiveWrites.run(() =>
      this.inTransaction((sql) => new IngestRun(sql, payload).execute()),
    );
    return {
      success: true,
      stats: { ...counts, duration: `${Math.round(performance.now() - started)}ms` },
    };
  }

  // Apart from ingest(), so that nothing of the parsed body stays referenced during the writes.
  private async readPayload(caller: Principal, raw: unknown): Promise<IngestPayload> {
    const parsed = raw instanceof RawJsonBody ? await openJsonInWorker(raw.bytes) : null;
    try {
      const body = parsed ? parsed.head : raw;
      const mode = (body as { options?: { mode?: unknown } } | null)?.options?.mode;
      if (mode === 'replace' && !roleIncludes(caller.role, Role.Admin)) {
        throw new ForbiddenException('replace mode requires the admin role');
      }
      return await parseIngestPayload(body, parsed?.slices);
    } finally {
      parsed?.close();
    }
  }

  private inTransaction<T>(work: (sql: IngestSql) => Promise<T>): Promise<T> {
    return this.dataSource.options.type === 'postgres'
      ? this.inPostgresTransaction(work)
      : this.inSqliteTransaction(work);
  }

  /**
   * On a connection of its own, so that requests served meanwhile neither see the transaction
   * half done nor run inside it (WAL lets them read the last committed state).
   */
  private async inSqliteTransaction<T>(work: (sql: IngestSql) => Promise<T>): Promise<T> {
    const file = this.dataSource.options.database as string;
    const inMemory = file === ':memory:';
    // An in-memory database exists only on the service's own connection, so the ingestion runs
    // there in one go, without letting other requests in between.
    const db = inMemory
      ? (this.dataSource.driver as unknown as { databaseConnection: Database.Database })
          .databaseConnection
      : new Database(file, { timeout: SQLITE_BUSY_TIMEOUT_MS });
    try {
      if (!inMemory) {
        db.pragma('foreign_keys = ON');
        // The checkpoint after a large commit runs in a worker instead (checkpointInBackground).
        db.pragma('wal_autocheckpoint = 0');
        // Lets a write that passed the gate just before the lock was taken finish first.
        await yieldToEventLoop();
      }
      db.exec('BEGIN IMMEDIATE');
      try {
        const result = await work(new SqliteIngestSql(db, !inMemory));
        db.exec('COMMIT');
        if (!inMemory) checkpointInBackground(file, SQLITE_BUSY_TIMEOUT_MS);
        return result;
      } catch (error) {
        if (db.inTransaction) db.exec('ROLLBACK');
        throw error;
      }
    } finally {
      if (!inMemory) db.close();
    }
  }

  private async inPostgresTransaction<T>(work: (sql: IngestSql) => Promise<T>): Promise<T> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      try {
        await runner.query('SELECT pg_advisory_xact_lock($1)', [POSTGRES_INGEST_LOCK]);
        const result = await work(new PostgresIngestSql(runner));
        await runner.commitTransaction();
        return result;
      } catch (error) {
        await runner.rollbackTransaction();
        throw error;
      }
    } finally {
      await runner.release();
    }
  }
}
