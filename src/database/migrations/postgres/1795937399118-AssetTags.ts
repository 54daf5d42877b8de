import { MigrationInterface, QueryRunner } from 'typeorm';

// Generated, then edited: going down takes the tags' identifier rows away with the column.
export class AssetTags1795937399118 implements MigrationInterface {
  name = 'AssetTags1795937399118';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "assets" ADD "tags" text NOT NULL DEFAULT ''`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM "asset_identifiers" WHERE "kind" = 'tag'`);
    await queryRunner.query(`ALTER TABLE "assets" DROP COLUMN "tags"`);
  }
}
