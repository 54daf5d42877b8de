import { MigrationInterface, QueryRunner } from 'typeorm';

export class Provenance1795496326167 implements MigrationInterface {
  name = 'Provenance1795496326167';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "asset_sources" ("asset_id" varchar(200) NOT NULL, "source" varchar(100) NOT NULL, "position" integer NOT NULL, PRIMARY KEY ("asset_id", "source"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_2b38bc79ce006108fab397f2ca" ON "asset_sources" ("source") `,
    );
    await queryRunner.query(`DROP INDEX "IDX_386694239d39a3a34d18f7f364"`);
    await queryRunner.query(`DROP INDEX "IDX_f60eb2bbce77f6fe37894a51a5"`);
    await queryRunner.query(`DROP INDEX "IDX_add30790adcab8cab8f6a231e2"`);
    await queryRunner.query(`DROP INDEX "IDX_56647aa3c21954f7c7fcbc2505"`);
    await queryRunner.query(`DROP INDEX "IDX_65e0e75ef00632fd0ba620e7f4"`);
    await queryRunner.query(
      `CREATE TABLE "temporary_assets" ("id" varchar(200) PRIMARY KEY NOT NULL, "name" varchar(255) NOT NULL, "ip" varchar(45), "type" varchar(64), "vendor" varchar(255), "model" varchar(255), "risk_score" integer, "site" varchar(255), "os_version" varchar(255), "source" varchar(100), "created_at" datetime NOT NULL DEFAULT (datetime('now')), "updated_at" datetime NOT NULL DEFAULT (datetime('now')), "origin" varchar(16) NOT NULL DEFAULT ('manual'), "first_seen_at" datetime, "last_seen_at" datetime)`,
    );
    await queryRunner.query(
      `INSERT INTO "temporary_assets"("id", "name", "ip", "type", "vendor", "model", "risk_score", "site", "os_version", "source", "created_at", "updated_at") SELECT "id", "name", "ip", "type", "vendor", "model", "risk_score", "site", "os_version", "source", "created_at", "updated_at" FROM "assets"`,
    );
    await queryRunner.query(`DROP TABLE "assets"`);
    await queryRunner.query(`ALTER TABLE "temporary_assets" RENAME TO "assets"`);
    await queryRunner.query(
      `CREATE INDEX "IDX_386694239d39a3a34d18f7f364" ON "assets" ("created_at", "id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_f60eb2bbce77f6fe37894a51a5" ON "assets" ("source") `,
    );
    await queryRunner.query(`CREATE INDEX "IDX_add30790adcab8cab8f6a231e2" ON "assets" ("site") `);
    await queryRunner.query(`CREATE INDEX "IDX_56647aa3c21954f7c7fcbc2505" ON "assets" ("type") `);
    await queryRunner.query(`CREATE INDEX "IDX_65e0e75ef00632fd0ba620e7f4" ON "assets" ("ip") `);
    await queryRunner.query(`DROP INDEX "IDX_2b38bc79ce006108fab397f2ca"`);
    await queryRunner.query(
      `CREATE TABLE "temporary_asset_sources" ("asset_id" varchar(200) NOT NULL, "source" varchar(100) NOT NULL, "position" integer NOT NULL, CONSTRAINT "FK_361cecaad414ae9187874ba8b39" FOREIGN KEY ("asset_id") REFERENCES "assets" ("id") ON DELETE CASCADE ON UPDATE NO ACTION, PRIMARY KEY ("asset_id", "source"))`,
    );
    await queryRunner.query(
      `INSERT INTO "temporary_asset_sources"("asset_id", "source", "position") SELECT "asset_id", "source", "position" FROM "asset_sources"`,
    );
    await queryRunner.query(`DROP TABLE "asset_sources"`);
    await queryRunner.query(`ALTER TABLE "temporary_asset_sources" RENAME TO "asset_sources"`);
    await queryRunner.query(
      `CREATE INDEX "IDX_2b38bc79ce006108fab397f2ca" ON "asset_sources" ("source") `,
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
    await queryRunner.query(`DROP INDEX "IDX_2b38bc79ce006108fab397f2ca"`);
    await queryRunner.query(`ALTER TABLE "asset_sources" RENAME TO "temporary_asset_sources"`);
    await queryRunner.query(
      `CREATE TABLE "asset_sources" ("asset_id" varchar(200) NOT NULL, "source" varchar(100) NOT NULL, "position" integer NOT NULL, PRIMARY KEY ("asset_id", "source"))`,
    );
    await queryRunner.query(
      `INSERT INTO "asset_sources"("asset_id", "source", "position") SELECT "asset_id", "source", "position" FROM "temporary_asset_sources"`,
    );
    await queryRunner.query(`DROP TABLE "temporary_asset_sources"`);
    await queryRunner.query(
      `CREATE INDEX "IDX_2b38bc79ce006108fab397f2ca" ON "asset_sources" ("source") `,
    );
    await queryRunner.query(`DROP INDEX "IDX_65e0e75ef00632fd0ba620e7f4"`);
    await queryRunner.query(`DROP INDEX "IDX_56647aa3c21954f7c7fcbc2505"`);
    await queryRunner.query(`DROP INDEX "IDX_add30790adcab8cab8f6a231e2"`);
    await queryRunner.query(`DROP INDEX "IDX_f60eb2bbce77f6fe37894a51a5"`);
    await queryRunner.query(`DROP INDEX "IDX_386694239d39a3a34d18f7f364"`);
    await queryRunner.query(`ALTER TABLE "assets" RENAME TO "temporary_assets"`);
    await queryRunner.query(
      `CREATE TABLE "assets" ("id" varchar(200) PRIMARY KEY NOT NULL, "name" varchar(255) NOT NULL, "ip" varchar(45), "type" varchar(64), "vendor" varchar(255), "model" varchar(255), "risk_score" integer, "site" varchar(255), "os_version" varchar(255), "source" varchar(100), "created_at" datetime NOT NULL DEFAULT (datetime('now')), "updated_at" datetime NOT NULL DEFAULT (datetime('now')))`,
    );
    await queryRunner.query(
      `INSERT INTO "assets"("id", "name", "ip", "type", "vendor", "model", "risk_score", "site", "os_version", "source", "created_at", "updated_at") SELECT "id", "name", "ip", "type", "vendor", "model", "risk_score", "site", "os_version", "source", "created_at", "updated_at" FROM "temporary_assets"`,
    );
    await queryRunner.query(`DROP TABLE "temporary_assets"`);
    await queryRunner.query(`CREATE INDEX "IDX_65e0e75ef00632fd0ba620e7f4" ON "assets" ("ip") `);
    await queryRunner.query(`CREATE INDEX "IDX_56647aa3c21954f7c7fcbc2505" ON "assets" ("type") `);
    await queryRunner.query(`CREATE INDEX "IDX_add30790adcab8cab8f6a231e2" ON "assets" ("site") `);
    await queryRunner.query(
      `CREATE INDEX "IDX_f60eb2bbce77f6fe37894a51a5" ON "assets" ("source") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_386694239d39a3a34d18f7f364" ON "assets" ("created_at", "id") `,
    );
    await queryRunner.query(`DROP INDEX "IDX_2b38bc79ce006108fab397f2ca"`);
    await queryRunner.query(`DROP TABLE "asset_sources"`);
  }
}
