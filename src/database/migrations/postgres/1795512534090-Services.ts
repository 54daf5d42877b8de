import { MigrationInterface, QueryRunner } from 'typeorm';

export class Services1795512534090 implements MigrationInterface {
  name = 'Services1795512534090';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "services" ("asset_id" character varying(200) NOT NULL, "port" integer NOT NULL, "protocol" character varying(8) NOT NULL, "name" character varying(64), "product" character varying(255), "version" character varying(255), CONSTRAINT "PK_f3a244ff042210ed64718e17445" PRIMARY KEY ("asset_id", "port", "protocol"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_78081a015354d285da4045c4b3" ON "services"  ("name", "asset_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_0d3e2285d6cb3d7219bbcf54d7" ON "services"  ("port", "asset_id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "services" ADD CONSTRAINT "FK_708fa71d1115f5c7d0e33b6b054" FOREIGN KEY ("asset_id") REFERENCES "assets"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "services" DROP CONSTRAINT "FK_708fa71d1115f5c7d0e33b6b054"`,
    );
    await queryRunner.query(`DROP INDEX "public"."IDX_0d3e2285d6cb3d7219bbcf54d7"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_78081a015354d285da4045c4b3"`);
    await queryRunner.query(`DROP TABLE "services"`);
  }
}
