import type { EntityManager } from 'typeorm';
import type { IngestLookups, IngestSql, UnitSql } from '../ingest-sql.js';

/**
 * Locks on process ids, each held by its process for its lifetime, so that another process can
 * tell a live one from a dead one: a dead process's lock is free.
 */
export interface InstanceLocks {
  /** Connects; `onError` hears of a connection lost later (its locks are then free). */
  open(onError: (error: Error) => void): Promise<void>;
  /** Whether open() succeeded and close() has not been called. */
  readonly isOpen: boolean;
  tryLock(id: number): Promise<boolean>;
  unlock(id: number): Promise<void>;
  close(): Promise<void>;
}

/** Runs SQL with :named parameters on the connection, synchronously: the rows. */
export type NamedSyncQuery = <T>(sql: string, parameters: Record<string, unknown>) => T[];

/**
 * The trigram index of the assets' searched columns where it is a table of its own (SQLite's
 * FTS5 table, migration AssetSearch), and the matches of a term found through it once per
 * request (sqlite-search-matches.ts).
 */
export interface AssetSearchIndex {
  /** Shorter terms have no trigram: they are searched without the index. */
  readonly minTermLength: number;
  /** The condition on `assets` that a row holds :phrase. */
  readonly condition: string;
  /** The :phrase of a lowered term. */
  phrase(term: string): string;
  /** The same condition once `within` found the matches: their rowids probed in their table. */
  readonly matched: string;
  /** As `matched`, but keeping the query from being driven by the matches' table. */
  readonly matchedProbed: string;
  /** The matches counted (`total`), with the assets in all (`assets`). */
  readonly countMatched: string;
  /** `work`'s answer, run synchronously while the matches of `phrase` are kept. */
  within<T>(phrase: string, work: (all: NamedSyncQuery) => T): T;
}

/** What an ingestion wrote, as afterIngestion weighs it. */
export interface IngestionWritten {
  /** Assets and relations created or deleted. */
  rowsMoved: number;
  /** Assets written: created, updated, or unchanged but seen (their last_seen_at moves). */
  assetsWritten: number;
}

/** A pool's connections, as the metrics show them. */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

/** One entry of a JSON object built in SQL: its key, and an SQL expression or a list. */
export type JsonEntry = readonly [key: string, value: string | JsonListField];

/** One list field of a JSON object built in SQL: objects of its rows' fields, or plain values. */
export interface JsonListField {
  /** The list's rows: `FROM <table> WHERE ...`. */
  from: string;
  /** The table's columns that order the list; with fields, each also the key of one. */
  orderBy: readonly string[];
  /** Each row's fields as [key, expression over the table's columns]; or one column's values. */
  fields: readonly (readonly [key: string, expression: string])[] | string;
}

/**
 * Everything that differs between SQLite and PostgreSQL, in SQL and in behaviour: the one object
 * that knows which database the service runs on. Features and repositories ask it; nothing
 * outside `src/database/` names a driver or checks the database's type (a lint rule refuses it).
 */
export abstract class Dialect {
  // ---- SQL pieces ----

  /** A timestamp column as the API shows it: ISO 8601 in UTC with milliseconds; NULL stays. */
  abstract isoTimestamp(column: string): string;

  /** A date column as its `YYYY-MM-DD` text. */
  abstract dateText(column: string): string;

  /** A timestamp column's day in UTC, as `YYYY-MM-DD` text (the findings' trend groups by it). */
  abstract utcDay(column: string): string;

  /**
   * A timestamp expression plus `days` (an SQL expression of a number; NULL gives NULL), as a
   * value that orders as that time does; not a timestamp to show (the findings' due dates).
   */
  abstract plusDaysOrder(timestamp: string, days: string): string;

  /**
   * A column as exact text for a cursor; a timestamp one to the microsecond, in UTC with its
   * offset said, whatever the session's settings.
   */
  abstract sortKeyText(column: string, timestamp: boolean): string;

  /** The number of assets the triggers of migration AssetCount keep, as `total`. */
  abstract readonly countedAssets: string;

  /** The search's own index of the assets, where it is a table (SQLite); null: none. */
  abstract searchIndex(): AssetSearchIndex | null;

  /**
   * `column` as an operand that the planner does not look up through an index, where a
   * condition on it should only filter the rows a key found (SQLite plans without statistics:
   * it takes an equality on any indexed column over a list of keys).
   */
  abstract unindexed(column: string): string;

  /** `column` among the values of the :named list parameter (one array on PostgreSQL). */
  abstract inList(column: string, parameter: string): string;

  /** The values a `?`-style statement binds for an id list (createdRecordsSelect's ids). */
  abstract idListValues(ids: readonly string[]): unknown[];

  /** `column` ordered by its bytes (as JavaScript orders strings, short of surrogates). */
  abstract bytewise(column: string): string;

  /**
   * The clause that makes a SELECT lock its rows until the commit against other writers, or ''
   * where a transaction already excludes every other writer (SQLite).
   */
  abstract readonly lockRows: string;

  /**
   * The clause that makes a SELECT take rows of `alias` that no other transaction holds, and
   * hold them until the commit (each pending delivery claimed by one replica), or '' where one
   * process owns the database (SQLite).
   */
  abstract claimRows(alias: string): string;

  /**
   * Whether the comma-separated list of ports and ranges in `column` (`22,80-90`) holds the
   * :named `port`; items that are not a port or range hold nothing.
   */
  abstract portListHolds(column: string, port: string): string;

  /**
   * A subquery answering a JSON object as compact text, or NULL when `from` has no row: its
   * entries in order, each an SQL expression over `from`'s row or a list.
   */
  abstract jsonObject(entries: readonly JsonEntry[], from: string): string;

  /**
   * An entry's value for jsonObject: the text of `expression`, values separated by spaces
   * (none holding a space; a tag may hold a quote or a backslash), as a JSON array of them.
   */
  abstract spacedListJson(expression: string): string;

  /**
   * A statement recording the creation of `table` rows just written, as change records without
   * a copy: `?` parameters: the ids' prefix, the counter before the first, the time, the change
   * set's id, then the ids (idListValues).
   */
  abstract createdRecordsSelect(objectType: string, table: string, count: number): string;

  // ---- behaviour ----

  /**
   * Whether the database has one writer at a time, shared by the service's requests: other
   * writes then wait while an ingestion writes (SQLite).
   */
  abstract readonly oneWriter: boolean;

  /** Locks on process ids; null where one process owns the database (SQLite's file). */
  abstract instanceLocks(): InstanceLocks | null;

  /** The pool's connections; null where there is no pool (SQLite's one connection). */
  abstract poolStats(): PoolStats | null;

  /**
   * Runs `work` in an ingestion's write transaction (one at a time, across processes), with
   * lookups that see the store as it was before it; commits if `work` succeeds.
   */
  abstract inIngestion<T>(work: (sql: IngestSql, lookups: IngestLookups) => Promise<T>): Promise<T>;

  /**
   * The statements of an ingestion's writes in a route's write unit (its transaction's
   * `manager`): an asset's findings are written the same way by both.
   */
  abstract unitSql(manager: EntityManager): UnitSql;

  /** Runs `work` with lookups in a consistent snapshot that takes no write lock (a dry run). */
  abstract inSnapshot<T>(work: (lookups: IngestLookups) => Promise<T>): Promise<T>;

  /**
   * After an ingestion's commit: the planner's statistics refreshed and indexes tidied where the
   * database needs it, given what the run wrote. A failure is logged, never thrown: the run is
   * committed and answered as it is.
   */
  abstract afterIngestion(written: IngestionWritten): Promise<void>;

  /** Settles what the dialect left running (background work) before the process ends. */
  abstract settled(): Promise<void>;
}
