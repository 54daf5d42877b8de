import { MigrationInterface, QueryRunner } from 'typeorm';

/** The columns the list's `search` reads (AssetsService), indexed together by trigram. */
const COLUMNS = ['name', 'ip', 'vendor', 'model', 'site', 'type', 'os_version'];
const LIST = COLUMNS.join(', ');
const lowered = (row: string) => COLUMNS.map((column) => `LOWER(${row}.${column})`).join(', ');
const CHANGED = COLUMNS.map((column) => `old.${column} IS NOT new.${column}`).join(' OR ');

// Hand-written: TypeORM knows neither virtual tables nor triggers. An FTS5 table with the
// trigram tokenizer answers substring queries by index. It holds the columns as LOWER() gives
// them, compared case-sensitively, so that a phrase of the lowered term matches exactly where
// LOWER(column) LIKE '%term%' does. Contentless (the text stays in assets only), keyed by the
// assets' rowid, rows deletable; the triggers keep it in step with every write to assets,
// ingestion included, in the writing transaction. A later migration that rebuilds the assets
// table must create the triggers again and refill the table as below.
export class AssetSearch1795527936776 implements MigrationInterface {
  name = 'AssetSearch1795527936776';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE VIRTUAL TABLE "assets_search" USING fts5(${LIST}, content='', contentless_delete=1, tokenize='trigram case_sensitive 1')`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "assets_search_insert" AFTER INSERT ON "assets" BEGIN INSERT INTO "assets_search"(rowid, ${LIST}) VALUES (new.rowid, ${lowered('new')}); END`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "assets_search_delete" AFTER DELETE ON "assets" BEGIN DELETE FROM "assets_search" WHERE rowid = old.rowid; END`,
    );
    // Only when a searched column changes: a repeated ingestion rewrites every asset unchanged.
    await queryRunner.query(
      `CREATE TRIGGER "assets_search_update" AFTER UPDATE ON "assets" WHEN ${CHANGED} BEGIN DELETE FROM "assets_search" WHERE rowid = old.rowid; INSERT INTO "assets_search"(rowid, ${LIST}) VALUES (new.rowid, ${lowered('new')}); END`,
    );
    await queryRunner.query(
      `INSERT INTO "assets_search"(rowid, ${LIST}) SELECT rowid, ${lowered('assets')} FROM "assets"`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "assets_search_update"`);
    await queryRunner.query(`DROP TRIGGER "assets_search_delete"`);
    await queryRunner.query(`DROP TRIGGER "assets_search_insert"`);
    await queryRunner.query(`DROP TABLE "assets_search"`);
  }
}
