import { MigrationInterface, QueryRunner } from 'typeorm';

/** The columns the list's `search` reads (AssetsService), indexed together by trigram. */
const COLUMNS = ['name', 'ip', 'vendor', 'model', 'site', 'type', 'os_version'];
const NEW = COLUMNS.map((column) => `new.${column}`).join(', ');
const OLD = COLUMNS.map((column) => `old.${column}`).join(', ');
const CHANGED = COLUMNS.map((column) => `old.${column} IS NOT new.${column}`).join(' OR ');

// Hand-written: TypeORM knows neither virtual tables nor triggers. An external-content FTS5 table
// (the text stays in assets, keyed by its rowid) with the trigram tokenizer answers substring
// queries by index; the triggers keep it in step with every write to assets, ingestion included,
// in the writing transaction. A later migration that rebuilds the assets table must create the
// triggers again and end with the 'rebuild' below.
export class AssetSearch1795527936776 implements MigrationInterface {
  name = 'AssetSearch1795527936776';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE VIRTUAL TABLE "assets_search" USING fts5(${COLUMNS.join(', ')}, content='assets', content_rowid='rowid', tokenize='trigram')`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "assets_search_insert" AFTER INSERT ON "assets" BEGIN INSERT INTO "assets_search"(rowid, ${COLUMNS.join(', ')}) VALUES (new.rowid, ${NEW}); END`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "assets_search_delete" AFTER DELETE ON "assets" BEGIN INSERT INTO "assets_search"("assets_search", rowid, ${COLUMNS.join(', ')}) VALUES ('delete', old.rowid, ${OLD}); END`,
    );
    // Only when a searched column changes: a repeated ingestion rewrites every asset unchanged.
    await queryRunner.query(
      `CREATE TRIGGER "assets_search_update" AFTER UPDATE ON "assets" WHEN ${CHANGED} BEGIN INSERT INTO "assets_search"("assets_search", rowid, ${COLUMNS.join(', ')}) VALUES ('delete', old.rowid, ${OLD}); INSERT INTO "assets_search"(rowid, ${COLUMNS.join(', ')}) VALUES (new.rowid, ${NEW}); END`,
    );
    await queryRunner.query(`INSERT INTO "assets_search"("assets_search") VALUES ('rebuild')`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "assets_search_update"`);
    await queryRunner.query(`DROP TRIGGER "assets_search_delete"`);
    await queryRunner.query(`DROP TRIGGER "assets_search_insert"`);
    await queryRunner.query(`DROP TABLE "assets_search"`);
  }
}
