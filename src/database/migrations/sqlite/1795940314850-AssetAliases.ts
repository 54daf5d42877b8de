import { MigrationInterface, QueryRunner } from 'typeorm';

// Generated, then edited: the table created with its foreign key at once, rather than rebuilt
// to add it.
export class AssetAliases1795940314850 implements MigrationInterface {
  name = 'AssetAliases1795940314850';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "asset_aliases" ("alias_id" varchar(200) PRIMARY KEY NOT NULL, "asset_id" varchar(200) NOT NULL, CONSTRAINT "FK_35bf5e78bbb51a9d008efa6ed68" FOREIGN KEY ("asset_id") REFERENCES "assets" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_35bf5e78bbb51a9d008efa6ed6" ON "asset_aliases" ("asset_id") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_35bf5e78bbb51a9d008efa6ed6"`);
    await queryRunner.query(`DROP TABLE "asset_aliases"`);
  }
}
