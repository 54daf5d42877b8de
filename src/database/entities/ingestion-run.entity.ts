import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { ActorColumns } from './actor-columns.js';
import type { RunFormat } from '../../common/ingest-formats.js';

/** What the ingestion reads from the body's options, for the run's record. */
export interface IngestRunOptions {
  format: RunFormat;
  mode: 'merge' | 'replace' | 'append';
  source: string | null;
  deleteStale: boolean;
  dryRun: boolean;
}

export type RunStatus = 'running' | 'succeeded' | 'rejected' | 'failed';

export const RUN_STATUSES: readonly RunStatus[] = ['running', 'succeeded', 'rejected', 'failed'];

/** The answer's stats, kept as given. */
export type RunStats = Record<string, number | string>;

/** One ingestion request that passed authentication and the role check, whatever its end. */
@Entity('ingestion_runs')
// The list: newest first, optionally of one status or one source; also the start-up sweep
// (status running) and the retention delete (started_at).
@Index(['startedAt', 'id'])
@Index(['status', 'startedAt'])
@Index(['source', 'startedAt'])
export class IngestionRun {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ type: 'varchar', length: 16 })
  status: RunStatus;

  // The options are null (format: json) until the body's options are read.
  @Column({ name: 'dry_run', type: 'boolean', nullable: true })
  dryRun: boolean | null;

  @Column({ type: 'varchar', length: 16, default: 'json' })
  format: IngestRunOptions['format'];

  @Column({ type: 'varchar', length: 16, nullable: true })
  mode: IngestRunOptions['mode'] | null;

  @Column({ type: 'varchar', length: 100, nullable: true })
  source: string | null;

  @Column({ name: 'delete_stale', type: 'boolean', nullable: true })
  deleteStale: boolean | null;

  @Column(() => ActorColumns, { prefix: false })
  actor: ActorColumns;

  @Column({ name: 'request_id', type: 'varchar', length: 128 })
  requestId: string;

  @Column({ name: 'body_bytes', type: 'integer', nullable: true })
  bodyBytes: number | null;

  /** The process running it (RunInstance): tells a live replica's run from a dead one's. */
  @Column({ name: 'instance_id', type: 'integer' })
  instanceId: number;

  @Column({ name: 'started_at', type: Date })
  startedAt: Date;

  @Column({ name: 'finished_at', type: Date, nullable: true })
  finishedAt: Date | null;

  @Column({ type: 'simple-json', nullable: true })
  stats: RunStats | null;

  @Column({ type: 'text', nullable: true })
  error: string | null;
}
