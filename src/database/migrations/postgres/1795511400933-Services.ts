import { MigrationInterface, QueryRunner } from 'typeorm';

export class Services1795511400933 implements MigrationInterface {
  name = 'Services1795511400933';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "services" ("asset_id" character varying(200) NOT NULL, "port" integer NOT NULL, "protocol" character varying(8) NOT NULL, "name" character varying(64), "product" character varying(255), "version" character varying(255), CONSTRAINT "PK_f3a244ff042210ed64718e17445" PRIMARY KEY ("asset_id", "port", "protocol"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_019d74f7abcdcb5a0113010cb0" ON "services"  ("name") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_b518db105b950e1f11a4abeef0" ON "services"  ("port") `,
    );
    await queryRunner.query(
      `ALTER TABLE "services" ADD CONSTRAINT "FK_708fa71d1115f5c7d0e33b6b054" FOREIGN KEY ("asset_id") REFERENCES "assets"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "services" DROP CONSTRAINT "FK_708fa71d1115f5c7d0e33b6b054"`,
    );
    await queryRunner.query(`DROP INDEX "public"."IDX_b518db105b950e1f11a4abeef0"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_019d74f7abcdcb5a0113010cb0"`);
    await queryRunner.query(`DROP TABLE "services"`);
  }
}
