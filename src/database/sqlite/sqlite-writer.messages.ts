/** The messages between SqliteWriter (sqlite-writer.ts) and its worker (sqlite-writer.worker.ts). */

export interface SqliteWriterData {
  file: string;
  timeoutMs: number;
  /** The tables whose secondary indexes a load into them all empty drops until the commit. */
  bulkLoadTables: string[];
  /**
   * Tables (the change records) whose secondary indexes such a load also drops until the
   * commit, while they hold fewer than `rebuildMaxRows` rows: building them again then costs
   * less than keeping them up to date row by row.
   */
  rebuiltTables: string[];
  rebuildMaxRows: number;
  /** Rows one statement inserts during such a load. */
  bulkRowsPerStatement: number;
}

export type SqliteWriterRequest =
  | { op: 'insert'; table: string; sql: string; bulkSql: string | null; rows: unknown[][] }
  | { op: 'all' | 'arrays' | 'run'; sql: string; params: unknown[] }
  /** Acknowledged as an insert is, without its answer. */
  | { op: 'queued'; sql: string; params: unknown[] }
  | { op: 'commit' | 'rollback' };

export type SqliteWriterAnswer =
  { inserted: true } | { result?: unknown } | { error: { message: string; code?: string } };
