import { MigrationInterface, QueryRunner } from 'typeorm';

export class AssetAliases1795940333097 implements MigrationInterface {
  name = 'AssetAliases1795940333097';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "asset_aliases" ("alias_id" character varying(200) NOT NULL, "asset_id" character varying(200) NOT NULL, CONSTRAINT "PK_57eab75e4dcc1e2eb7d52870035" PRIMARY KEY ("alias_id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_35bf5e78bbb51a9d008efa6ed6" ON "asset_aliases"  ("asset_id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "asset_aliases" ADD CONSTRAINT "FK_35bf5e78bbb51a9d008efa6ed68" FOREIGN KEY ("asset_id") REFERENCES "assets"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "asset_aliases" DROP CONSTRAINT "FK_35bf5e78bbb51a9d008efa6ed68"`,
    );
    await queryRunner.query(`DROP INDEX "IDX_35bf5e78bbb51a9d008efa6ed6"`);
    await queryRunner.query(`DROP TABLE "asset_aliases"`);
  }
}
