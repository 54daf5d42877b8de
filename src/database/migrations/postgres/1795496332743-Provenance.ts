import { MigrationInterface, QueryRunner } from 'typeorm';

export class Provenance1795496332743 implements MigrationInterface {
  name = 'Provenance1795496332743';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "asset_sources" ("asset_id" character varying(200) NOT NULL, "source" character varying(100) NOT NULL, "position" integer NOT NULL, CONSTRAINT "PK_19b7b2d7bc3fcd8d0d6f5868e93" PRIMARY KEY ("asset_id", "source"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_2b38bc79ce006108fab397f2ca" ON "asset_sources"  ("source") `,
    );
    await queryRunner.query(
      `ALTER TABLE "assets" ADD "origin" character varying(16) NOT NULL DEFAULT 'manual'`,
    );
    await queryRunner.query(`ALTER TABLE "assets" ADD "first_seen_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "assets" ADD "last_seen_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(
      `ALTER TABLE "asset_sources" ADD CONSTRAINT "FK_361cecaad414ae9187874ba8b39" FOREIGN KEY ("asset_id") REFERENCES "assets"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    // Carry the stored assets over: one written by a feed came in through an ingestion (its
    // first and last sighting are the best known: its creation and its last update).
    await queryRunner.query(
      `UPDATE "assets" SET "origin" = 'ingest', "first_seen_at" = "created_at", "last_seen_at" = "updated_at" WHERE "source" IS NOT NULL`,
    );
    await queryRunner.query(
      `INSERT INTO "asset_sources" ("asset_id", "source", "position") SELECT "id", "source", 0 FROM "assets" WHERE "source" IS NOT NULL`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "asset_sources" DROP CONSTRAINT "FK_361cecaad414ae9187874ba8b39"`,
    );
    await queryRunner.query(`ALTER TABLE "assets" DROP COLUMN "last_seen_at"`);
    await queryRunner.query(`ALTER TABLE "assets" DROP COLUMN "first_seen_at"`);
    await queryRunner.query(`ALTER TABLE "assets" DROP COLUMN "origin"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_2b38bc79ce006108fab397f2ca"`);
    await queryRunner.query(`DROP TABLE "asset_sources"`);
  }
}
