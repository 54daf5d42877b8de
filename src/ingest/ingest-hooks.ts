import type { IngestResponse } from './dto/ingest-response.dto.js';
import type { IngestRunOptions } from '../database/entities/ingestion-run.entity.js';
import type { IngestSql } from '../database/ingest-sql.js';

export type { IngestRunOptions };

/** How the caller of IngestService (the runs layer) follows one run. */
export interface IngestHooks {
  /** The run's id: the answer's `runId`. */
  runId: string;
  /** The request's id, which the run's change records carry. */
  requestId: string;
  /** Called once the body's options are read and valid, before any item is read. */
  optionsRead?(options: IngestRunOptions): void;
  /**
   * Called inside the write transaction, after every write, just before the commit, with the
   * answer about to be given: the run's record and a kept replay answer land with the
   * ingestion or not at all. Not called for a dry run (no write transaction).
   */
  beforeCommit?(sql: IngestSql, answer: IngestResponse): Promise<void>;
}
