/** The messages between SqliteWriter (sqlite-writer.ts) and its worker (sqlite-writer.worker.ts). */

export interface SqliteWriterData {
  file: string;
  timeoutMs: number;
  /** The tables whose secondary indexes a load into them all empty drops until the commit. */
  bulkLoadTables: string[];
  /** Rows one statement inserts during such a load. */
  bulkRowsPerStatement: number;
}

export type SqliteWriterRequest =
  | { op: 'insert'; sql: string; bulkSql: string | null; rows: unknown[][] }
  | { op: 'all' | 'run'; sql: string; params: unknown[] }
  | { op: 'commit' | 'rollback' };

export type SqliteWriterAnswer =
  { inserted: true } | { result?: unknown } | { error: { message: string; code?: string } };
