import { MigrationInterface, QueryRunner } from 'typeorm';
import { copyIpsToAddresses } from '../identity-copy.js';

// Generated, then edited: the columns added in place rather than by a rebuild of the assets
// table (whose drop would delete every asset's lists and relations by cascade, and its
// triggers), the identifiers' table created with its foreign key at once, and each asset's ip
// copied into its addresses.
export class AssetIdentity1795924778051 implements MigrationInterface {
  name = 'AssetIdentity1795924778051';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "asset_identifiers" ("asset_id" varchar(200) NOT NULL, "kind" varchar(8) NOT NULL, "value" varchar(253) NOT NULL, CONSTRAINT "FK_50ce9b44f043b2a41593a173e76" FOREIGN KEY ("asset_id") REFERENCES "assets" ("id") ON DELETE CASCADE ON UPDATE NO ACTION, PRIMARY KEY ("asset_id", "kind", "value"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_3edb2fdd50f01691c014280c41" ON "asset_identifiers" ("kind", "value") `,
    );
    await queryRunner.query(`ALTER TABLE "assets" ADD "addresses" text NOT NULL DEFAULT ('')`);
    await queryRunner.query(`ALTER TABLE "assets" ADD "mac_addresses" text NOT NULL DEFAULT ('')`);
    await queryRunner.query(`ALTER TABLE "assets" ADD "hostnames" text NOT NULL DEFAULT ('')`);
    await copyIpsToAddresses(queryRunner, () => '?');
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "assets" DROP COLUMN "hostnames"`);
    await queryRunner.query(`ALTER TABLE "assets" DROP COLUMN "mac_addresses"`);
    await queryRunner.query(`ALTER TABLE "assets" DROP COLUMN "addresses"`);
    await queryRunner.query(`DROP INDEX "IDX_3edb2fdd50f01691c014280c41"`);
    await queryRunner.query(`DROP TABLE "asset_identifiers"`);
  }
}
