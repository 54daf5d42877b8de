import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import Database from 'better-sqlite3';
import { performance } from 'node:perf_hooks';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { ForbiddenError } from '../common/errors/forbidden.error.js';
import { UnreadBody } from '../common/http/unread-body.js';
import type { Principal } from '../common/principal.js';
import { Role, roleIncludes } from '../common/role.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { AppDataSource } from '../database/app-data-source.js';
import { SQLITE_BUSY_TIMEOUT_MS } from '../database/database-options.js';
import { BackgroundCheckpoints } from '../database/sqlite-checkpoint.js';
import { IngestMetrics, type IngestRunLabels } from '../metrics/ingest-metrics.service.js';
import type { IngestResponse } from './dto/ingest-response.dto.js';
import type { IngestPayload } from './ingest-payload.js';
import { openJsonInWorker } from './parse/json-worker.js';
import { parseIngestPayload, parseScannerPayload } from './validate/validate-payload.js';
import { optionsFromQuery, refuseQuery } from './validate/query-options.js';
import type { IngestHooks, IngestRunOptions } from './ingest-hooks.js';
import { isScannerMediaType } from './formats/convert-body.js';
import { openScannerInWorker } from './parse/scanner-worker.js';
import { CHECK_ITEMS_PER_TURN } from './ingest-tuning.js';
import { IngestRun, type IngestOutcome } from './ingest-run.js';
import type { IngestLookups, IngestSql } from './ingest-sql.js';
import { PostgresIngestSql } from './apply/postgres-ingest-sql.js';
import { SqliteWriter } from './apply/sqlite-writer.js';
import { SqliteLookups } from './match/sqlite-lookups.js';

// An ingestion into an empty store is a bulk load on SQLite (SqliteWriter.open).
const INGESTED_TABLES = ['assets', 'asset_sources', 'vulnerabilities', 'services', 'relations'];

/**
 * PostgreSQL's planner statistics are refreshed after a run whose creations and deletions reach
 * a tenth of the assets the planner believes stored (autovacuum's own threshold), at least this
 * many. Autovacuum would refresh them up to a minute later; meanwhile the planner still sees the
 * tables as they were (empty, after a first load) and pages the list by scanning a million rows.
 */
const ANALYZE_MIN_ROWS = 1000;
const PLANNED_ASSETS = `SELECT reltuples FROM pg_class WHERE oid = 'assets'::regclass`;
const ANALYZE_INGESTED = `ANALYZE ${[...INGESTED_TABLES, 'changes'].join(', ')}`;

// Serializes ingestions across every process sharing a PostgreSQL database.
export const POSTGRES_INGEST_LOCK = 7_402_151_001;

/** What besides the body tells how to read it: its Content-Type, and the query's options. */
export interface IngestForm {
  mediaType: string;
  query: Record<string, unknown>;
}

const JSON_FORM: IngestForm = { mediaType: 'application/json', query: {} };

/** The body's bytes (read now when still unread), or null for a value already parsed. */
async function bytesOf(raw: unknown): Promise<Buffer | null> {
  if (raw instanceof UnreadBody) return raw.read();
  return Buffer.isBuffer(raw) ? raw : null;
}

/** A body opened: its payload (options checked, items to come), and what to close after. */
interface OpenedPayload {
  payload: IngestPayload;
  close(): Promise<void>;
}

@Injectable()
export class IngestService implements OnModuleDestroy {
  private readonly logger = new Logger(IngestService.name);
  private readonly checkpoints = new BackgroundCheckpoints();

  constructor(
    @InjectDataSource() private readonly dataSource: AppDataSource,
    private readonly metrics: IngestMetrics,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onModuleDestroy(): Promise<void> {
    await this.checkpoints.settled();
  }

  /**
   * `raw` is the body as the HTTP layer hands it over (unparsed), the body already read, or an
   * already parsed value (JSON). `hooks` follow the run (ingest-hooks.ts). `form`: the body's
   * media type picks its format (JSON, or a scanner's: formats/), whose options come in the query.
   */
  ingest(
    caller: Principal,
    raw: unknown,
    hooks: IngestHooks,
    form: IngestForm = JSON_FORM,
  ): Promise<IngestResponse> {
    return this.metrics.measure((labels) => this.run(caller, raw, hooks, form, labels));
  }

  private async run(
    caller: Principal,
    raw: unknown,
    hooks: IngestHooks,
    form: IngestForm,
    labels: IngestRunLabels,
  ): Promise<IngestResponse> {
    const started = performance.now();
    // The top level is checked here; the items are read during the run, slice by slice.
    const opened = isScannerMediaType(form.mediaType)
      ? await this.openScanner(caller, raw, hooks, form)
      : await this.openJson(caller, raw, hooks, form);
    const { payload } = opened;
    try {
      labels.mode = payload.mode;
      const answer = ({ counts, changes }: IngestOutcome): IngestResponse => ({
        success: true,
        runId: hooks.runId,
        dryRun: payload.dryRun,
        stats: { ...counts, duration: `${Math.round(performance.now() - started)}ms` },
        changes,
      });
      if (payload.dryRun) {
        // No write lock: the plan is made against a snapshot, and nothing is written.
        return answer(
          await this.inSnapshot((lookups) => new IngestRun(payload, null, lookups).execute()),
        );
      }
      // One ingestion at a time in this process; the transaction also serializes across
      // processes.
      const response = await this.dataSource.exclusiveWrites.run(() =>
        this.inTransaction(async (sql, lookups) => {
          const history = this.config.changeHistory
            ? { caller, requestId: hooks.requestId, runId: hooks.runId }
            : null;
          const run = new IngestRun(payload, sql, lookups, new Date(), history);
          const response = answer(await run.execute());
          await hooks.beforeCommit?.(sql, response);
          return response;
        }),
      );
      await this.refreshPlannerStatistics(response.stats);
      return response;
    } finally {
      await opened.close();
    }
  }

  /** On PostgreSQL, after a run that changed much of the store (see ANALYZE_MIN_ROWS). */
  private async refreshPlannerStatistics(stats: IngestResponse['stats']): Promise<void> {
    if (this.dataSource.options.type !== 'postgres') return;
    const moved =
      stats.assetsCreated + stats.assetsDeleted + stats.relationsCreated + stats.relationsDeleted;
    if (moved < ANALYZE_MIN_ROWS) return;
    try {
      const [{ reltuples }] = await this.dataSource.query<{ reltuples: number }[]>(PLANNED_ASSETS);
      // -1: never analyzed.
      if (moved >= Math.max(0, reltuples) / 10) await this.dataSource.query(ANALYZE_INGESTED);
    } catch (error) {
      // The run is committed and answered as it is; autovacuum will catch up.
      this.logger.warn(`planner statistics not refreshed: ${(error as Error).message}`);
    }
  }

  /** A JSON body: parsed in a worker, its options in the body (none in the query). */
  private async openJson(
    caller: Principal,
    raw: unknown,
    hooks: IngestHooks,
    form: IngestForm,
  ): Promise<OpenedPayload> {
    refuseQuery(form.query);
    const bytes = await bytesOf(raw);
    const parsed = bytes?.length ? await openJsonInWorker(bytes) : null;
    // An empty body is no body, as on every other route.
    const body = parsed ? parsed.head : bytes ? undefined : raw;
    const close = async () => await parsed?.close();
    try {
      const mode = (body as { options?: { mode?: unknown } } | null)?.options?.mode;
      const payload = this.checkPayload(caller, 'json', mode, hooks, () =>
        parseIngestPayload(body, parsed?.slices),
      );
      return { payload, close };
    } catch (error) {
      await close();
      throw error;
    }
  }

  /**
   * A scanner's body (Nmap or Nessus XML, CSV): its options from the query, its items
   * converted in a worker, a slice ahead of the run, once the format is known (an XML body's
   * root element).
   */
  private async openScanner(
    caller: Principal,
    raw: unknown,
    hooks: IngestHooks,
    form: IngestForm,
  ): Promise<OpenedPayload> {
    const options = optionsFromQuery(form.query);
    const bytes = await bytesOf(raw);
    const body = await openScannerInWorker(
      form.mediaType,
      bytes ?? Buffer.alloc(0),
      CHECK_ITEMS_PER_TURN,
    );
    try {
      const payload = this.checkPayload(caller, body.format, options.mode, hooks, () =>
        parseScannerPayload(options, body.slices),
      );
      return { payload, close: () => body.close() };
    } catch (error) {
      await body.close();
      throw error;
    }
  }

  /**
   * The options checked (`parse`) and handed to the hooks; the roles they need checked
   * around: replace before, deleteStale without a source after.
   */
  private checkPayload(
    caller: Principal,
    format: IngestRunOptions['format'],
    mode: unknown,
    hooks: IngestHooks,
    parse: () => IngestPayload,
  ): IngestPayload {
    const admin = roleIncludes(caller.role, Role.Admin);
    if (mode === 'replace' && !admin) {
      throw new ForbiddenError('replace mode requires the admin role');
    }
    const payload = parse();
    const { deleteStale, source, dryRun } = payload;
    hooks.optionsRead?.({ format, mode: payload.mode, source, deleteStale, dryRun });
    // Without a source, deleteStale deletes whatever the payload leaves out, as replace does.
    if (payload.mode === 'merge' && deleteStale && source === null && !admin) {
      const [stale, from] =
        format === 'json' ? ['options.deleteStale', 'options.source'] : ['deleteStale', 'source'];
      throw new ForbiddenError(`${stale} without ${from} requires the admin role`);
    }
    return payload;
  }

  /**
   * A dry run's lookups: a consistent view of the store, taking no lock other writers wait
   * for. SQLite: a read-only connection in a read transaction (WAL keeps its snapshot while
   * others write); PostgreSQL: a read-only REPEATABLE READ transaction.
   */
  private async inSnapshot<T>(work: (lookups: IngestLookups) => Promise<T>): Promise<T> {
    if (this.dataSource.options.type === 'postgres') return this.inPostgresSnapshot(null, work);
    const file = this.dataSource.options.database as string;
    const reader = new Database(file, { readonly: true, timeout: SQLITE_BUSY_TIMEOUT_MS });
    try {
      reader.exec('BEGIN');
      return await work(new SqliteLookups(reader));
    } finally {
      if (reader.inTransaction) reader.exec('ROLLBACK');
      reader.close();
    }
  }

  /** `work` gets the transaction, and where to look up stored rows (see IngestRun). */
  private inTransaction<T>(
    work: (sql: IngestSql, lookups: IngestLookups) => Promise<T>,
  ): Promise<T> {
    return this.dataSource.options.type === 'postgres'
      ? this.inPostgresTransaction(work)
      : this.inSqliteTransaction(work);
  }

  /**
   * In a worker thread (SqliteWriter), on a connection of its own, so that requests served
   * meanwhile neither see the transaction half done nor run inside it (WAL lets them read the
   * last committed state), and so that the rows are written while the main thread goes on
   * with the payload. Lookups go to a read-only connection: it sees the state before the
   * ingestion, which is what the plan is made against.
   */
  private async inSqliteTransaction<T>(
    work: (sql: IngestSql, lookups: IngestLookups) => Promise<T>,
  ): Promise<T> {
    const file = this.dataSource.options.database as string;
    // Lets a write that passed the gate just before the lock was taken finish first.
    await yieldToEventLoop();
    const writer = await SqliteWriter.open(file, SQLITE_BUSY_TIMEOUT_MS, INGESTED_TABLES, [
      'changes',
    ]);
    // Opened once the write lock is held: no other write can land between the two.
    let reader: Database.Database | null = null;
    try {
      reader = new Database(file, { readonly: true, timeout: SQLITE_BUSY_TIMEOUT_MS });
      const result = await work(writer, new SqliteLookups(reader));
      await writer.commit();
      this.checkpoints.start(file, SQLITE_BUSY_TIMEOUT_MS);
      return result;
    } catch (error) {
      await writer.rollback().catch(() => undefined);
      throw error;
    } finally {
      reader?.close();
      await writer.close();
    }
  }

  /**
   * Lookups go to a second connection, in a read-only transaction that imports the write
   * transaction's snapshot once the lock is held: like SQLite's read-only connection, it shows
   * the state before the ingestion (none of its writes), so each slice is written as soon as
   * it is planned, while the next one is looked up and planned (PostgresIngestSql queues the
   * writes). One ingestion at a time per process: two connections of the pool at most.
   */
  private async inPostgresTransaction<T>(
    work: (sql: IngestSql, lookups: IngestLookups) => Promise<T>,
  ): Promise<T> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      const sql = new PostgresIngestSql(runner);
      try {
        await runner.query('SELECT pg_advisory_xact_lock($1)', [POSTGRES_INGEST_LOCK]);
        const [{ snapshot }] = (await runner.query('SELECT pg_export_snapshot() AS snapshot')) as {
          snapshot: string;
        }[];
        const result = await this.inPostgresSnapshot(snapshot, (lookups) => work(sql, lookups));
        await sql.settle();
        await runner.commitTransaction();
        return result;
      } catch (error) {
        await sql.drain();
        await runner.rollbackTransaction();
        throw error;
      }
    } finally {
      await runner.release();
    }
  }

  /**
   * `work` given lookups in a read-only REPEATABLE READ transaction of its own: a consistent
   * view of the store that takes no lock other writers wait for; `snapshot` (exported by
   * another transaction) makes it that transaction's view.
   */
  private async inPostgresSnapshot<T>(
    snapshot: string | null,
    work: (lookups: IngestLookups) => Promise<T>,
  ): Promise<T> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction('REPEATABLE READ');
      try {
        // An identifier PostgreSQL made (hex digits and dashes), which SET cannot take as a
        // parameter.
        if (snapshot !== null) await runner.query(`SET TRANSACTION SNAPSHOT '${snapshot}'`);
        await runner.query('SET TRANSACTION READ ONLY');
        // Every lookup names its rows by key, a slice's ids at a time. With the default costs
        // (random_page_cost 4, for spinning disks) the planner reads a whole large table for a
        // slice's ids, which costs far more than reading them by index.
        await runner.query('SET LOCAL enable_seqscan = off');
        return await work(new PostgresIngestSql(runner));
      } finally {
        await runner.rollbackTransaction();
      }
    } finally {
      await runner.release();
    }
  }
}
