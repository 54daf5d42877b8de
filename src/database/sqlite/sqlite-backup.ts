import Database from 'better-sqlite3';

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
