/**
 * The ingestion's tuning constants, in one place. Each is a trade between throughput and how
 * long the event loop (other requests, health probes) waits at a stretch; the figures behind
 * them are in bench/README.md.
 */

/** Array items per message of the JSON worker: each message is a short task to take in. */
export const JSON_ITEMS_PER_MESSAGE = 2_000;

/** Rows per message to the SQLite writer thread: a few milliseconds of work for either thread. */
export const SQLITE_ROWS_PER_MESSAGE = 2_000;

/**
 * Insert messages handed to the SQLite writer (or statements queued on PostgreSQL's connection)
 * and not yet carried out, at most: the rest wait on the main thread, so that a slow disk
 * holds back the reading instead of filling memory.
 */
export const MAX_QUEUED_INSERTS = 8;

/**
 * Rows one statement inserts during a bulk load into empty tables on SQLite: without indexes
 * to keep up, the calls into the driver are most of an insert's cost.
 */
export const BULK_ROWS_PER_STATEMENT = 10;

/**
 * Items of an already parsed body checked between two turns of the event loop (a body that
 * did not come through the JSON worker: the same slices the worker would send).
 */
export const CHECK_ITEMS_PER_TURN = JSON_ITEMS_PER_MESSAGE;

/**
 * Items planned between two turns of the event loop: a few milliseconds of work, so that
 * health probes and other requests wait no longer than that.
 */
export const PLAN_ITEMS_PER_TURN = 5_000;

/**
 * Ids one `IN (...)` lookup or delete binds (fewer where the database takes fewer
 * parameters): larger lists gain nothing measurable and hold the event loop longer.
 */
export const IDS_PER_STATEMENT = 5_000;

/**
 * Rows of one PostgreSQL insert (one array per column, expanded by unnest): serializing the
 * arrays holds the event loop, and 5,000 rows keep that short at no cost in speed.
 */
export const POSTGRES_ROWS_PER_INSERT = 5_000;

/**
 * A bulk load also drops the change records' indexes until its commit while they hold fewer
 * rows than this. Inserting a load's records and then building their indexes costs less than
 * keeping the indexes up to date row by row; over many more stored records than a load adds,
 * rebuilding costs more than it saves.
 */
export const BULK_REBUILD_MAX_ROWS = 100_000;
