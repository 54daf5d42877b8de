import { MigrationInterface, QueryRunner } from 'typeorm';

export class Inventory1795303938642 implements MigrationInterface {
  name = 'Inventory1795303938642';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "assets" ("id" character varying(200) NOT NULL, "name" character varying(255) NOT NULL, "ip" character varying(45), "type" character varying(64), "vendor" character varying(255), "model" character varying(255), "risk_score" integer, "site" character varying(255), "os_version" character varying(255), "source" character varying(100), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_da96729a8b113377cfb6a62439c" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_65e0e75ef00632fd0ba620e7f4" ON "assets"  ("ip") `);
    await queryRunner.query(`CREATE INDEX "IDX_56647aa3c21954f7c7fcbc2505" ON "assets"  ("type") `);
    await queryRunner.query(`CREATE INDEX "IDX_add30790adcab8cab8f6a231e2" ON "assets"  ("site") `);
    await queryRunner.query(
      `CREATE INDEX "IDX_f60eb2bbce77f6fe37894a51a5" ON "assets"  ("source") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_386694239d39a3a34d18f7f364" ON "assets"  ("created_at", "id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "vulnerabilities" ("asset_id" character varying(200) NOT NULL, "id" character varying(64) NOT NULL, "score" double precision, "summary" character varying(2000), "published_date" date, CONSTRAINT "PK_311b50a31fb77fef7a3de089d83" PRIMARY KEY ("asset_id", "id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "diagrams" ("id" character varying(36) NOT NULL, "name" character varying(255) NOT NULL, "description" character varying(2000), "visibility" character varying(16) NOT NULL DEFAULT 'private', "owner_id" character varying(36), "content" text NOT NULL DEFAULT '{}', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_81f832a385d660caf0bf53cb6c9" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_9d9065dffc81726a33b6437eb5" ON "diagrams"  ("owner_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_ae950ecf59557bd5d499e6d04c" ON "diagrams"  ("created_at", "id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "relations" ("id" character varying(36) NOT NULL, "source_asset_id" character varying(200) NOT NULL, "target_asset_id" character varying(200) NOT NULL, "type" character varying(64) NOT NULL, "direction" character varying(8) NOT NULL DEFAULT 'bi', "protocol" character varying(32), "to_ports" character varying(1000), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_964096eb20c2a6dd4e4bb17546f" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_f8637cdd6d07a6396911fcda4f" ON "relations"  ("target_asset_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_b48ced00922407ef83d2795d62" ON "relations"  ("created_at", "id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_fbb4a3645361c31911b09dcd63" ON "relations"  ("source_asset_id", "target_asset_id", "type") `,
    );
    await queryRunner.query(
      `ALTER TABLE "vulnerabilities" ADD CONSTRAINT "FK_faaeafc82dc1f1070834666e018" FOREIGN KEY ("asset_id") REFERENCES "assets"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "diagrams" ADD CONSTRAINT "FK_9d9065dffc81726a33b6437eb5c" FOREIGN KEY ("owner_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "relations" ADD CONSTRAINT "FK_2c02a5bea5a164917e4f550a641" FOREIGN KEY ("source_asset_id") REFERENCES "assets"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "relations" ADD CONSTRAINT "FK_f8637cdd6d07a6396911fcda4fd" FOREIGN KEY ("target_asset_id") REFERENCES "assets"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "relations" DROP CONSTRAINT "FK_f8637cdd6d07a6396911fcda4fd"`,
    );
    await queryRunner.query(
      `ALTER TABLE "relations" DROP CONSTRAINT "FK_2c02a5bea5a164917e4f550a641"`,
    );
    await queryRunner.query(
      `ALTER TABLE "diagrams" DROP CONSTRAINT "FK_9d9065dffc81726a33b6437eb5c"`,
    );
    await queryRunner.query(
      `ALTER TABLE "vulnerabilities" DROP CONSTRAINT "FK_faaeafc82dc1f1070834666e018"`,
    );
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
