import type BetterSqlite3 from 'better-sqlite3';
import type { DataSource } from 'typeorm';
import type { BetterSqlite3Driver } from 'typeorm/driver/better-sqlite3/BetterSqlite3Driver.js';
import type { AssetSearchIndex, NamedSyncQuery } from '../dialect/dialect.js';
import { SEARCH_MATCHES_TABLE, SqliteSearchMatches } from './sqlite-search-matches.js';

// The assets whose lowered columns hold the phrase, by the trigram table (migration AssetSearch).
const CONDITION =
  'assets.rowid IN (SELECT rowid FROM assets_search WHERE assets_search MATCH :phrase)';
// The same assets, once SqliteSearchMatches has found them: probed by rowid in its table.
const MATCHED = `assets.rowid IN (SELECT r FROM ${SEARCH_MATCHES_TABLE})`;

/** SQLite's FTS5 trigram table of the searched columns, compared case-sensitively on lowered text. */
export class SqliteSearchIndex implements AssetSearchIndex {
  readonly minTermLength = 3;
  readonly condition = CONDITION;
  readonly matched = MATCHED;
  // The unary + keeps SQLite from driving the query by rowid: it then walks the index of the
  // list's order, probing each entry's rowid in the matches' table, and reads only the page's
  // rows (walksSortIndex says when).
  readonly matchedProbed = `+${MATCHED}`;
  // The assets in all weigh the page's plan.
  readonly countMatched = `SELECT COUNT(*) AS total, (SELECT total FROM asset_count) AS assets
  FROM ${SEARCH_MATCHES_TABLE}`;
  private readonly matches: SqliteSearchMatches;

  constructor(private readonly dataSource: DataSource) {
    this.matches = new SqliteSearchMatches(
      () => (dataSource.driver as BetterSqlite3Driver).databaseConnection as BetterSqlite3.Database,
    );
  }

  /** The term's trigrams in a row, quotes doubled. */
  phrase(term: string): string {
    return `"${term.replace(/"/g, '""')}"`;
  }

  within<T>(phrase: string, work: (all: NamedSyncQuery) => T): T {
    const { driver } = this.dataSource;
    return this.matches.within(phrase, (query) =>
      work(<R>(sql: string, parameters: Record<string, unknown>) =>
        query<R>(...driver.escapeQueryWithParameters(sql, parameters)),
      ),
    );
  }
}
