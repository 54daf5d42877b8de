/** The messages between SqliteLookups (sqlite-lookups.ts) and its worker (sqlite-lookups.worker.ts). */

export interface SqliteLookupsData {
  file: string;
  timeoutMs: number;
  /**
   * Whether the connection reads in one read transaction, a snapshot that later commits do not
   * change (a dry run beside other writes). Beside an ingestion it needs none: the ingestion's
   * writes stay out of sight until its commit.
   */
  snapshot: boolean;
}

/** A lookup; the worker answers each with a WorkerAnswer (common/workers/ordered-answers.ts). */
export type SqliteLookupsRequest = { op: 'all' | 'arrays'; sql: string; params: unknown[] };
