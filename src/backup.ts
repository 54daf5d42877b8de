// Online backup of the SQLite database (`node dist/backup.js <target file>`), safe while the
// service runs: SQLite's backup API copies a consistent snapshot, WAL content included.
import { existsSync } from 'node:fs';
import { readConfig } from './config/read-config.js';
import { backUpSqlite, sqliteFileOf } from './database/sqlite/sqlite-backup.js';

const target = process.argv[2];
const config = readConfig();
if (!target) {
  console.error('Usage: node dist/backup.js <target file>');
  process.exit(2);
}
const file = sqliteFileOf(config.database);
if (file === null) {
  console.error('This backs up a SQLite database file; back up PostgreSQL with pg_dump');
  process.exit(2);
}
if (!existsSync(file)) {
  console.error(`No database at ${file}`);
  process.exit(1);
}
if (existsSync(target)) {
  console.error(`${target} exists already; choose a new file`);
  process.exit(1);
}
try {
  const pages = await backUpSqlite(file, target);
  console.log(`Backed up ${file} to ${target} (${pages} pages)`);
} catch (error) {
  console.error(`Backup failed: ${(error as Error).message}`);
  process.exitCode = 1;
}
