import type BetterSqlite3 from 'better-sqlite3';

/** The table the matches are kept in, for conditions such as `assets.rowid IN (SELECT r FROM ...)`. */
export const SEARCH_MATCHES_TABLE = 'temp.search_matches';

const CREATE = `CREATE TEMP TABLE IF NOT EXISTS search_matches (r INTEGER PRIMARY KEY)`;
const FILL = `INSERT INTO ${SEARCH_MATCHES_TABLE} (r)
  SELECT rowid FROM assets_search WHERE assets_search MATCH ?`;
const CLEAR = `DELETE FROM ${SEARCH_MATCHES_TABLE}`;

/** Runs SQL with positional parameters on the connection, synchronously: the rows. */
export type SyncQuery = <T>(sql: string, values: unknown[]) => T[];

/**
 * A search's matches on SQLite, found once per request. The trigram phrase of a common term
 * costs most of a search (at 1M assets, `host 12` reads its four first trigrams in every row):
 * evaluated once into a temporary table keyed by the assets' rowid, it gives the total (a
 * count of that table) and serves the page (as the set its rowids are probed in, without
 * building one per statement). The table is private to the connection, and the fill, the
 * work and the clearing run in one synchronous call in one read transaction: no other request
 * runs in between, and the total and the page see the same rows.
 */
export class SqliteSearchMatches {
  private readonly statements = new Map<string, BetterSqlite3.Statement>();
  private db?: BetterSqlite3.Database;

  constructor(private readonly connection: () => BetterSqlite3.Database) {}

  /** `work`'s answer, run while the table holds the assets matching `phrase` (FTS5 syntax). */
  within<T>(phrase: string, work: (query: SyncQuery) => T): T {
    const db = this.connect();
    const query: SyncQuery = <R>(sql: string, values: unknown[]) =>
      this.statement(sql).all(...values) as R[];
    // Nested in a transaction already open on the connection, this is a savepoint of it.
    return db.transaction(() => {
      this.statement(FILL).run(phrase);
      try {
        return work(query);
      } finally {
        this.statement(CLEAR).run();
      }
    })();
  }

  /** The connection, its table created once (again if the connection was replaced). */
  private connect(): BetterSqlite3.Database {
    const db = this.connection();
    if (db !== this.db) {
      this.statements.clear();
      db.exec(CREATE);
      this.db = db;
    }
    return db;
  }

  private statement(sql: string): BetterSqlite3.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.connection().prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}
