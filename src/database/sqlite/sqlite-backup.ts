import Database from 'better-sqlite3';
import type { DatabaseConfig } from '../../config/app-config.js';

/** The SQLite database file `database` names; null for PostgreSQL or a private in-memory one. */
export function sqliteFileOf(database: DatabaseConfig): string | null {
  return database.kind === 'sqlite' && database.file !== ':memory:' ? database.file : null;
}

/**
 * Copies the SQLite database `file` to `target` with SQLite's online backup API: a consistent
 * snapshot, WAL content included, safe while the service writes. Answers the pages copied.
 */
export async function backUpSqlite(file: string, target: string): Promise<number> {
  // Not read-only: reading a WAL database may need to create its shared-memory file.
  const database = new Database(file, { fileMustExist: true, timeout: 10_000 });
  try {
    const { totalPages } = await database.backup(target);
    return totalPages;
  } finally {
    database.close();
  }
}
