import { MigrationInterface, QueryRunner } from 'typeorm';

// Generated, then edited: the column added in place rather than by a rebuild of the assets
// table (whose drop would delete every asset's lists and relations by cascade, and its
// triggers). The tags' identifier rows go in asset_identifiers, whose columns take them as
// they are.
export class AssetTags1795937393571 implements MigrationInterface {
  name = 'AssetTags1795937393571';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "assets" ADD "tags" text NOT NULL DEFAULT ('')`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM "asset_identifiers" WHERE "kind" = 'tag'`);
    await queryRunner.query(`ALTER TABLE "assets" DROP COLUMN "tags"`);
  }
}
