import type { QueryRunner } from 'typeorm';

/**
 * The statements of the assets' search index over `columns` (the ones the list's `search`
 * reads), for the migrations that make it (AssetSearch, then AssetIdentitySearch with the
 * identity lists). Part of those migrations' schema: a change is a new migration.
 */

/** The columns migration AssetSearch indexed. */
export const SEARCHED_BEFORE_IDENTITY = [
  'name',
  'ip',
  'vendor',
  'model',
  'site',
  'type',
  'os_version',
] as const;

/** The columns migration AssetIdentitySearch indexes: the identity lists' text too. */
export const SEARCHED_WITH_IDENTITY = [
  ...SEARCHED_BEFORE_IDENTITY,
  'addresses',
  'mac_addresses',
  'hostnames',
] as const;

/**
 * SQLite: an FTS5 table with the trigram tokenizer, answering substring queries by index. It
 * holds the columns as LOWER() gives them, compared case-sensitively, so that a phrase of the
 * lowered term matches exactly where LOWER(column) LIKE '%term%' does. Contentless (the text
 * stays in assets only), keyed by the assets' rowid, rows deletable; the triggers keep it in
 * step with every write to assets, ingestion included, in the writing transaction. Filled from
 * the stored assets.
 */
export async function createSqliteSearchIndex(
  queryRunner: QueryRunner,
  columns: readonly string[],
): Promise<void> {
  const list = columns.join(', ');
  const lowered = (row: string) => columns.map((column) => `LOWER(${row}.${column})`).join(', ');
  const changed = columns.map((column) => `old.${column} IS NOT new.${column}`).join(' OR ');
  await queryRunner.query(
    `CREATE VIRTUAL TABLE "assets_search" USING fts5(${list}, content='', contentless_delete=1, tokenize='trigram case_sensitive 1')`,
  );
  await queryRunner.query(
    `CREATE TRIGGER "assets_search_insert" AFTER INSERT ON "assets" BEGIN INSERT INTO "assets_search"(rowid, ${list}) VALUES (new.rowid, ${lowered('new')}); END`,
  );
  await queryRunner.query(
    `CREATE TRIGGER "assets_search_delete" AFTER DELETE ON "assets" BEGIN DELETE FROM "assets_search" WHERE rowid = old.rowid; END`,
  );
  // Only when a searched column changes: a repeated ingestion rewrites every asset unchanged.
  await queryRunner.query(
    `CREATE TRIGGER "assets_search_update" AFTER UPDATE ON "assets" WHEN ${changed} BEGIN DELETE FROM "assets_search" WHERE rowid = old.rowid; INSERT INTO "assets_search"(rowid, ${list}) VALUES (new.rowid, ${lowered('new')}); END`,
  );
  await queryRunner.query(
    `INSERT INTO "assets_search"(rowid, ${list}) SELECT rowid, ${lowered('assets')} FROM "assets"`,
  );
}

/** SQLite: the search index and its triggers dropped. */
export async function dropSqliteSearchIndex(queryRunner: QueryRunner): Promise<void> {
  await queryRunner.query(`DROP TRIGGER "assets_search_update"`);
  await queryRunner.query(`DROP TRIGGER "assets_search_delete"`);
  await queryRunner.query(`DROP TRIGGER "assets_search_insert"`);
  await queryRunner.query(`DROP TABLE "assets_search"`);
}

/**
 * PostgreSQL: pg_trgm's GIN operator class answers LOWER(column) LIKE '%term%' by index. The
 * extension is created in the public schema when missing (a database may install it beforehand,
 * in any schema): created in the service's own schema, it would go with that schema. Its
 * operator class is named with the schema it is in, which need not be on the search path.
 */
export async function createPostgresSearchIndex(
  queryRunner: QueryRunner,
  columns: readonly string[],
): Promise<void> {
  await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public`);
  const [{ schema }] = (await queryRunner.query(
    `SELECT extnamespace::regnamespace::text AS schema FROM pg_extension WHERE extname = 'pg_trgm'`,
  )) as { schema: string }[];
  const indexed = columns.map((column) => `LOWER("${column}") ${schema}.gin_trgm_ops`);
  await queryRunner.query(
    `CREATE INDEX "IDX_assets_search" ON "assets" USING gin (${indexed.join(', ')})`,
  );
}
