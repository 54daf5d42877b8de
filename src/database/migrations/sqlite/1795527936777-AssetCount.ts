import { MigrationInterface, QueryRunner } from 'typeorm';

// Hand-written: the unfiltered list's total read from one row instead of counted (a scan of the
// whole table at each request), kept exact by triggers in every writing transaction. SQLite has
// one writer at a time, so the row is no point of contention.
export class AssetCount1795527936777 implements MigrationInterface {
  name = 'AssetCount1795527936777';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "asset_count" ("total" integer NOT NULL)`);
    await queryRunner.query(`INSERT INTO "asset_count" ("total") SELECT COUNT(*) FROM "assets"`);
    await queryRunner.query(
      `CREATE TRIGGER "asset_count_insert" AFTER INSERT ON "assets" BEGIN UPDATE "asset_count" SET "total" = "total" + 1; END`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "asset_count_delete" AFTER DELETE ON "assets" BEGIN UPDATE "asset_count" SET "total" = "total" - 1; END`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "asset_count_delete"`);
    await queryRunner.query(`DROP TRIGGER "asset_count_insert"`);
    await queryRunner.query(`DROP TABLE "asset_count"`);
  }
}
