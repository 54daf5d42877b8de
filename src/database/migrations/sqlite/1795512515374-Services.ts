import { MigrationInterface, QueryRunner } from 'typeorm';

export class Services1795512515374 implements MigrationInterface {
  name = 'Services1795512515374';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "services" ("asset_id" varchar(200) NOT NULL, "port" integer NOT NULL, "protocol" varchar(8) NOT NULL, "name" varchar(64), "product" varchar(255), "version" varchar(255), PRIMARY KEY ("asset_id", "port", "protocol"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_78081a015354d285da4045c4b3" ON "services" ("name", "asset_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_0d3e2285d6cb3d7219bbcf54d7" ON "services" ("port", "asset_id") `,
    );
    await queryRunner.query(`DROP INDEX "IDX_78081a015354d285da4045c4b3"`);
    await queryRunner.query(`DROP INDEX "IDX_0d3e2285d6cb3d7219bbcf54d7"`);
    await queryRunner.query(
      `CREATE TABLE "temporary_services" ("asset_id" varchar(200) NOT NULL, "port" integer NOT NULL, "protocol" varchar(8) NOT NULL, "name" varchar(64), "product" varchar(255), "version" varchar(255), CONSTRAINT "FK_708fa71d1115f5c7d0e33b6b054" FOREIGN KEY ("asset_id") REFERENCES "assets" ("id") ON DELETE CASCADE ON UPDATE NO ACTION, PRIMARY KEY ("asset_id", "port", "protocol"))`,
    );
    await queryRunner.query(
      `INSERT INTO "temporary_services"("asset_id", "port", "protocol", "name", "product", "version") SELECT "asset_id", "port", "protocol", "name", "product", "version" FROM "services"`,
    );
    await queryRunner.query(`DROP TABLE "services"`);
    await queryRunner.query(`ALTER TABLE "temporary_services" RENAME TO "services"`);
    await queryRunner.query(
      `CREATE INDEX "IDX_78081a015354d285da4045c4b3" ON "services" ("name", "asset_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_0d3e2285d6cb3d7219bbcf54d7" ON "services" ("port", "asset_id") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_0d3e2285d6cb3d7219bbcf54d7"`);
    await queryRunner.query(`DROP INDEX "IDX_78081a015354d285da4045c4b3"`);
    await queryRunner.query(`ALTER TABLE "services" RENAME TO "temporary_services"`);
    await queryRunner.query(
      `CREATE TABLE "services" ("asset_id" varchar(200) NOT NULL, "port" integer NOT NULL, "protocol" varchar(8) NOT NULL, "name" varchar(64), "product" varchar(255), "version" varchar(255), PRIMARY KEY ("asset_id", "port", "protocol"))`,
    );
    await queryRunner.query(
      `INSERT INTO "services"("asset_id", "port", "protocol", "name", "product", "version") SELECT "asset_id", "port", "protocol", "name", "product", "version" FROM "temporary_services"`,
    );
    await queryRunner.query(`DROP TABLE "temporary_services"`);
    await queryRunner.query(
      `CREATE INDEX "IDX_0d3e2285d6cb3d7219bbcf54d7" ON "services" ("port", "asset_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_78081a015354d285da4045c4b3" ON "services" ("name", "asset_id") `,
    );
    await queryRunner.query(`DROP INDEX "IDX_0d3e2285d6cb3d7219bbcf54d7"`);
    await queryRunner.query(`DROP INDEX "IDX_78081a015354d285da4045c4b3"`);
    await queryRunner.query(`DROP TABLE "services"`);
  }
}
