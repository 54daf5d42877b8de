import { MigrationInterface, QueryRunner } from 'typeorm';

export class Inventory1795303929837 implements MigrationInterface {
  name = 'Inventory1795303929837';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "assets" ("id" varchar(200) PRIMARY KEY NOT NULL, "name" varchar(255) NOT NULL, "ip" varchar(45), "type" varchar(64), "vendor" varchar(255), "model" varchar(255), "risk_score" integer, "site" varchar(255), "os_version" varchar(255), "source" varchar(100), "created_at" datetime NOT NULL DEFAULT (datetime('now')), "updated_at" datetime NOT NULL DEFAULT (datetime('now')))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_65e0e75ef00632fd0ba620e7f4" ON "assets" ("ip") `);
    await queryRunner.query(`CREATE INDEX "IDX_56647aa3c21954f7c7fcbc2505" ON "assets" ("type") `);
    await queryRunner.query(`CREATE INDEX "IDX_add30790adcab8cab8f6a231e2" ON "assets" ("site") `);
    await queryRunner.query(
      `CREATE INDEX "IDX_f60eb2bbce77f6fe37894a51a5" ON "assets" ("source") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_386694239d39a3a34d18f7f364" ON "assets" ("created_at", "id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "vulnerabilities" ("asset_id" varchar(200) NOT NULL, "id" varchar(64) NOT NULL, "score" double precision, "summary" varchar(2000), "published_date" date, PRIMARY KEY ("asset_id", "id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "diagrams" ("id" varchar(36) PRIMARY KEY NOT NULL, "name" varchar(255) NOT NULL, "description" varchar(2000), "visibility" varchar(16) NOT NULL DEFAULT ('private'), "owner_id" varchar(36), "content" text NOT NULL DEFAULT ('{}'), "created_at" datetime NOT NULL DEFAULT (datetime('now')), "updated_at" datetime NOT NULL DEFAULT (datetime('now')))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_9d9065dffc81726a33b6437eb5" ON "diagrams" ("owner_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_ae950ecf59557bd5d499e6d04c" ON "diagrams" ("created_at", "id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "relations" ("id" varchar(36) PRIMARY KEY NOT NULL, "source_asset_id" varchar(200) NOT NULL, "target_asset_id" varchar(200) NOT NULL, "type" varchar(64) NOT NULL, "direction" varchar(8) NOT NULL DEFAULT ('bi'), "protocol" varchar(32), "to_ports" varchar(1000), "created_at" datetime NOT NULL DEFAULT (datetime('now')), "updated_at" datetime NOT NULL DEFAULT (datetime('now')))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_f8637cdd6d07a6396911fcda4f" ON "relations" ("target_asset_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_b48ced00922407ef83d2795d62" ON "relations" ("created_at", "id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_fbb4a3645361c31911b09dcd63" ON "relations" ("source_asset_id", "target_asset_id", "type") `,
    );
    await queryRunner.query(
      `CREATE TABLE "temporary_vulnerabilities" ("asset_id" varchar(200) NOT NULL, "id" varchar(64) NOT NULL, "score" double precision, "summary" varchar(2000), "published_date" date, CONSTRAINT "FK_faaeafc82dc1f1070834666e018" FOREIGN KEY ("asset_id") REFERENCES "assets" ("id") ON DELETE CASCADE ON UPDATE NO ACTION, PRIMARY KEY ("asset_id", "id"))`,
    );
    await queryRunner.query(
      `INSERT INTO "temporary_vulnerabilities"("asset_id", "id", "score", "summary", "published_date") SELECT "asset_id", "id", "score", "summary", "published_date" FROM "vulnerabilities"`,
    );
    await queryRunner.query(`DROP TABLE "vulnerabilities"`);
    await queryRunner.query(`ALTER TABLE "temporary_vulnerabilities" RENAME TO "vulnerabilities"`);
    await queryRunner.query(`DROP INDEX "IDX_9d9065dffc81726a33b6437eb5"`);
    await queryRunner.query(`DROP INDEX "IDX_ae950ecf59557bd5d499e6d04c"`);
    await queryRunner.query(
      `CREATE TABLE "temporary_diagrams" ("id" varchar(36) PRIMARY KEY NOT NULL, "name" varchar(255) NOT NULL, "description" varchar(2000), "visibility" varchar(16) NOT NULL DEFAULT ('private'), "owner_id" varchar(36), "content" text NOT NULL DEFAULT ('{}'), "created_at" datetime NOT NULL DEFAULT (datetime('now')), "updated_at" datetime NOT NULL DEFAULT (datetime('now')), CONSTRAINT "FK_9d9065dffc81726a33b6437eb5c" FOREIGN KEY ("owner_id") REFERENCES "users" ("id") ON DELETE SET NULL ON UPDATE NO ACTION)`,
    );
    await queryRunner.query(
      `INSERT INTO "temporary_diagrams"("id", "name", "description", "visibility", "owner_id", "content", "created_at", "updated_at") SELECT "id", "name", "description", "visibility", "owner_id", "content", "created_at", "updated_at" FROM "diagrams"`,
    );
    await queryRunner.query(`DROP TABLE "diagrams"`);
    await queryRunner.query(`ALTER TABLE "temporary_diagrams" RENAME TO "diagrams"`);
    await queryRunner.query(
      `CREATE INDEX "IDX_9d9065dffc81726a33b6437eb5" ON "diagrams" ("owner_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_ae950ecf59557bd5d499e6d04c" ON "diagrams" ("created_at", "id") `,
    );
    await queryRunner.query(`DROP INDEX "IDX_f8637cdd6d07a6396911fcda4f"`);
    await queryRunner.query(`DROP INDEX "IDX_b48ced00922407ef83d2795d62"`);
    await queryRunner.query(`DROP INDEX "IDX_fbb4a3645361c31911b09dcd63"`);
    await queryRunner.query(
      `CREATE TABLE "temporary_relations" ("id" varchar(36) PRIMARY KEY NOT NULL, "source_asset_id" varchar(200) NOT NULL, "target_asset_id" varchar(200) NOT NULL, "type" varchar(64) NOT NULL, "direction" varchar(8) NOT NULL DEFAULT ('bi'), "protocol" varchar(32), "to_ports" varchar(1000), "created_at" datetime NOT NULL DEFAULT (datetime('now')), "updated_at" datetime NOT NULL DEFAULT (datetime('now')), CONSTRAINT "FK_2c02a5bea5a164917e4f550a641" FOREIGN KEY ("source_asset_id") REFERENCES "assets" ("id") ON DELETE CASCADE ON UPDATE NO ACTION, CONSTRAINT "FK_f8637cdd6d07a6396911fcda4fd" FOREIGN KEY ("target_asset_id") REFERENCES "assets" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await queryRunner.query(
      `INSERT INTO "temporary_relations"("id", "source_asset_id", "target_asset_id", "type", "direction", "protocol", "to_ports", "created_at", "updated_at") SELECT "id", "source_asset_id", "target_asset_id", "type", "direction", "protocol", "to_ports", "created_at", "updated_at" FROM "relations"`,
    );
    await queryRunner.query(`DROP TABLE "relations"`);
    await queryRunner.query(`ALTER TABLE "temporary_relations" RENAME TO "relations"`);
    await queryRunner.query(
      `CREATE INDEX "IDX_f8637cdd6d07a6396911fcda4f" ON "relations" ("target_asset_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_b48ced00922407ef83d2795d62" ON "relations" ("created_at", "id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_fbb4a3645361c31911b09dcd63" ON "relations" ("source_asset_id", "target_asset_id", "type") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_fbb4a3645361c31911b09dcd63"`);
    await queryRunner.query(`DROP INDEX "IDX_b48ced00922407ef83d2795d62"`);
    await queryRunner.query(`DROP INDEX "IDX_f8637cdd6d07a6396911fcda4f"`);
    await queryRunner.query(`ALTER TABLE "relations" RENAME TO "temporary_relations"`);
    await queryRunner.query(
      `CREATE TABLE "relations" ("id" varchar(36) PRIMARY KEY NOT NULL, "source_asset_id" varchar(200) NOT NULL, "target_asset_id" varchar(200) NOT NULL, "type" varchar(64) NOT NULL, "direction" varchar(8) NOT NULL DEFAULT ('bi'), "protocol" varchar(32), "to_ports" varchar(1000), "created_at" datetime NOT NULL DEFAULT (datetime('now')), "updated_at" datetime NOT NULL DEFAULT (datetime('now')))`,
    );
    await queryRunner.query(
      `INSERT INTO "relations"("id", "source_asset_id", "target_asset_id", "type", "direction", "protocol", "to_ports", "created_at", "updated_at") SELECT "id", "source_asset_id", "target_asset_id", "type", "direction", "protocol", "to_ports", "created_at", "updated_at" FROM "temporary_relations"`,
    );
    await queryRunner.query(`DROP TABLE "temporary_relations"`);
    await queryRunner.query(
      `CREATE INDEX "IDX_fbb4a3645361c31911b09dcd63" ON "relations" ("source_asset_id", "target_asset_id", "type") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_b48ced00922407ef83d2795d62" ON "relations" ("created_at", "id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_f8637cdd6d07a6396911fcda4f" ON "relations" ("target_asset_id") `,
    );
    await queryRunner.query(`DROP INDEX "IDX_ae950ecf59557bd5d499e6d04c"`);
    await queryRunner.query(`DROP INDEX "IDX_9d9065dffc81726a33b6437eb5"`);
    await queryRunner.query(`ALTER TABLE "diagrams" RENAME TO "temporary_diagrams"`);
    await queryRunner.query(
      `CREATE TABLE "diagrams" ("id" varchar(36) PRIMARY KEY NOT NULL, "name" varchar(255) NOT NULL, "description" varchar(2000), "visibility" varchar(16) NOT NULL DEFAULT ('private'), "owner_id" varchar(36), "content" text NOT NULL DEFAULT ('{}'), "created_at" datetime NOT NULL DEFAULT (datetime('now')), "updated_at" datetime NOT NULL DEFAULT (datetime('now')))`,
    );
    await queryRunner.query(
      `INSERT INTO "diagrams"("id", "name", "description", "visibility", "owner_id", "content", "created_at", "updated_at") SELECT "id", "name", "description", "visibility", "owner_id", "content", "created_at", "updated_at" FROM "temporary_diagrams"`,
    );
    await queryRunner.query(`DROP TABLE "temporary_diagrams"`);
    await queryRunner.query(
      `CREATE INDEX "IDX_ae950ecf59557bd5d499e6d04c" ON "diagrams" ("created_at", "id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_9d9065dffc81726a33b6437eb5" ON "diagrams" ("owner_id") `,
    );
    await queryRunner.query(`ALTER TABLE "vulnerabilities" RENAME TO "temporary_vulnerabilities"`);
    await queryRunner.query(
      `CREATE TABLE "vulnerabilities" ("asset_id" varchar(200) NOT NULL, "id" varchar(64) NOT NULL, "score" double precision, "summary" varchar(2000), "published_date" date, PRIMARY KEY ("asset_id", "id"))`,
    );
    await queryRunner.query(
      `INSERT INTO "vulnerabilities"("asset_id", "id", "score", "summary", "published_date") SELECT "asset_id", "id", "score", "summary", "published_date" FROM "temporary_vulnerabilities"`,
    );
    await queryRunner.query(`DROP TABLE "temporary_vulnerabilities"`);
    await queryRunner.query(`DROP INDEX "IDX_fbb4a3645361c31911b09dcd63"`);
    await queryRunner.query(`DROP INDEX "IDX_b48ced00922407ef83d2795d62"`);
    await queryRunner.query(`DROP INDEX "IDX_f8637cdd6d07a6396911fcda4f"`);
    await queryRunner.query(`DROP TABLE "relations"`);
    await queryRunner.query(`DROP INDEX "IDX_ae950ecf59557bd5d499e6d04c"`);
    await queryRunner.query(`DROP INDEX "IDX_9d9065dffc81726a33b6437eb5"`);
    await queryRunner.query(`DROP TABLE "diagrams"`);
    await queryRunner.query(`DROP TABLE "vulnerabilities"`);
    await queryRunner.query(`DROP INDEX "IDX_386694239d39a3a34d18f7f364"`);
    await queryRunner.query(`DROP INDEX "IDX_f60eb2bbce77f6fe37894a51a5"`);
    await queryRunner.query(`DROP INDEX "IDX_add30790adcab8cab8f6a231e2"`);
    await queryRunner.query(`DROP INDEX "IDX_56647aa3c21954f7c7fcbc2505"`);
    await queryRunner.query(`DROP INDEX "IDX_65e0e75ef00632fd0ba620e7f4"`);
    await queryRunner.query(`DROP TABLE "assets"`);
  }
}
