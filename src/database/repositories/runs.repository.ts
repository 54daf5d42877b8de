import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { LessThan, type Repository } from 'typeorm';
import { AppDataSource } from '../app-data-source.js';
import { IngestionRun, type RunStatus } from '../entities/ingestion-run.entity.js';
import { placeholders, type IngestSql } from '../ingest-sql.js';
import { boundValue, flatColumns, rowValues, type TableColumn } from '../tables/column-table.js';
import { RUN_COLUMNS } from '../tables/ingestion-runs.table.js';

const RUN_ROW = flatColumns(RUN_COLUMNS);
const quoted = (column: TableColumn) => `"${column.name}"`;
const RUN_ID = quoted(RUN_COLUMNS.id);

/** A run's whole row inserted, or written over the row of the same id. */
const UPSERT_RUN =
  `INSERT INTO ingestion_runs (${RUN_ROW.map(quoted).join(', ')}) VALUES (${placeholders(RUN_ROW)})` +
  ` ON CONFLICT (${RUN_ID}) DO UPDATE SET ${RUN_ROW.filter((column) => column !== RUN_COLUMNS.id)
    .map((column) => `${quoted(column)} = excluded.${quoted(column)}`)
    .join(', ')}`;

/** Which runs a list shows; each filter given narrows it. */
export interface RunFilters {
  status?: RunStatus;
  source?: string;
}

export interface RunPage {
  runs: IngestionRun[];
  /** Every run matching the filters, before paging. */
  total: number;
}

/**
 * The ingestion runs: their list, and their record's writes as a run starts and ends. Those
 * are no write to the inventory: they go on the data source's connection, outside
 * InventoryWriter, but for the end an ingestion writes in its own transaction (upsertWithin).
 */
@Injectable()
export class RunsRepository {
  private readonly runs: Repository<IngestionRun>;

  constructor(@InjectDataSource() private readonly dataSource: AppDataSource) {
    this.runs = dataSource.getRepository(IngestionRun);
  }

  /**
   * Whether a write made now would wait for an ingestion's transaction: on a database with one
   * writer (SQLite), while an ingestion holds it.
   */
  get writesWait(): boolean {
    return this.dataSource.dialect.oneWriter && this.dataSource.exclusiveWrites.busy;
  }

  /** The instance of each run marked running (repeated for each of its runs). */
  async runningInstances(): Promise<number[]> {
    const running = await this.runs.find({
      select: { instanceId: true },
      where: { status: 'running' },
    });
    return running.map((run) => run.instanceId);
  }

  /** One page, newest first, and the filtered total. */
  async list(filters: RunFilters, paging: { limit: number; offset: number }): Promise<RunPage> {
    const where = {
      ...(filters.status !== undefined && { status: filters.status }),
      ...(filters.source !== undefined && { source: filters.source }),
    };
    const [runs, total] = await this.runs.findAndCount({
      where,
      order: { startedAt: 'DESC', id: 'DESC' },
      take: paging.limit,
      skip: paging.offset,
    });
    return { runs, total };
  }

  findById(id: string): Promise<IngestionRun | null> {
    return this.runs.findOneBy({ id });
  }

  /** A run's status and instance, or null without a run of that id. */
  findStatus(id: string): Promise<Pick<IngestionRun, 'status' | 'instanceId'> | null> {
    return this.runs.findOne({ select: { status: true, instanceId: true }, where: { id } });
  }

  /** Deletes the runs started before `time` (an indexed delete). */
  async deleteStartedBefore(time: Date): Promise<void> {
    await this.runs.delete({ startedAt: LessThan(time) });
  }

  /** Inserts `run`; nothing when a run with its id is there already. */
  async insertIfAbsent(run: IngestionRun): Promise<void> {
    await this.runs.createQueryBuilder().insert().values(run).orIgnore().execute();
  }

  /** Writes `changes` to the run with this id. */
  async update(id: string, changes: Partial<Omit<IngestionRun, 'id'>>): Promise<void> {
    await this.runs.update({ id }, changes);
  }

  /**
   * Writes `run`'s whole row, inserted or over the row of its id, inside an ingestion's
   * transaction (`sql`), so that it lands with the ingestion.
   */
  async upsertWithin(sql: IngestSql, run: IngestionRun): Promise<void> {
    await sql.run(
      UPSERT_RUN,
      rowValues(RUN_COLUMNS, run, (column, value) => boundValue(sql, column, value)),
    );
  }

  async delete(id: string): Promise<void> {
    await this.runs.delete({ id });
  }

  /** Fails every run of `instanceId` still marked running; answers how many. */
  async failRunningOf(instanceId: number, error: string, finishedAt: Date): Promise<number> {
    const result = await this.runs.update(
      { status: 'running', instanceId },
      { status: 'failed', error, finishedAt },
    );
    return result.affected ?? 0;
  }
}
