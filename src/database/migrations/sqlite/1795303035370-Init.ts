import { MigrationInterface, QueryRunner } from 'typeorm';

export class Init1795303035370 implements MigrationInterface {
  name = 'Init1795303035370';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "users" ("id" varchar(36) PRIMARY KEY NOT NULL, "email" varchar(320) NOT NULL, "name" varchar(255) NOT NULL, "role" varchar(16) NOT NULL, "password_hash" varchar(255) NOT NULL, "token_version" integer NOT NULL DEFAULT (0), "created_at" datetime NOT NULL DEFAULT (datetime('now')), "updated_at" datetime NOT NULL DEFAULT (datetime('now')), CONSTRAINT "UQ_97672ac88f789774dd47f7c8be3" UNIQUE ("email"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "api_keys" ("id" varchar(36) PRIMARY KEY NOT NULL, "user_id" varchar(36) NOT NULL, "name" varchar(255) NOT NULL, "prefix" varchar(32) NOT NULL, "key_hash" varchar(64) NOT NULL, "expires_at" datetime, "last_used_at" datetime, "created_at" datetime NOT NULL DEFAULT (datetime('now')), CONSTRAINT "UQ_6f6105c8efe05b310d046cbdb3d" UNIQUE ("prefix"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_a3baee01d8408cd3c0f89a9a97" ON "api_keys" ("user_id") `,
    );
    await queryRunner.query(`DROP INDEX "IDX_a3baee01d8408cd3c0f89a9a97"`);
    await queryRunner.query(
      `CREATE TABLE "temporary_api_keys" ("id" varchar(36) PRIMARY KEY NOT NULL, "user_id" varchar(36) NOT NULL, "name" varchar(255) NOT NULL, "prefix" varchar(32) NOT NULL, "key_hash" varchar(64) NOT NULL, "expires_at" datetime, "last_used_at" datetime, "created_at" datetime NOT NULL DEFAULT (datetime('now')), CONSTRAINT "UQ_6f6105c8efe05b310d046cbdb3d" UNIQUE ("prefix"), CONSTRAINT "FK_a3baee01d8408cd3c0f89a9a973" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await queryRunner.query(
      `INSERT INTO "temporary_api_keys"("id", "user_id", "name", "prefix", "key_hash", "expires_at", "last_used_at", "created_at") SELECT "id", "user_id", "name", "prefix", "key_hash", "expires_at", "last_used_at", "created_at" FROM "api_keys"`,
    );
    await queryRunner.query(`DROP TABLE "api_keys"`);
    await queryRunner.query(`ALTER TABLE "temporary_api_keys" RENAME TO "api_keys"`);
    await queryRunner.query(
      `CREATE INDEX "IDX_a3baee01d8408cd3c0f89a9a97" ON "api_keys" ("user_id") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_a3baee01d8408cd3c0f89a9a97"`);
    await queryRunner.query(`ALTER TABLE "api_keys" RENAME TO "temporary_api_keys"`);
    await queryRunner.query(
      `CREATE TABLE "api_keys" ("id" varchar(36) PRIMARY KEY NOT NULL, "user_id" varchar(36) NOT NULL, "name" varchar(255) NOT NULL, "prefix" varchar(32) NOT NULL, "key_hash" varchar(64) NOT NULL, "expires_at" datetime, "last_used_at" datetime, "created_at" datetime NOT NULL DEFAULT (datetime('now')), CONSTRAINT "UQ_6f6105c8efe05b310d046cbdb3d" UNIQUE ("prefix"))`,
    );
    await queryRunner.query(
      `INSERT INTO "api_keys"("id", "user_id", "name", "prefix", "key_hash", "expires_at", "last_used_at", "created_at") SELECT "id", "user_id", "name", "prefix", "key_hash", "expires_at", "last_used_at", "created_at" FROM "temporary_api_keys"`,
    );
    await queryRunner.query(`DROP TABLE "temporary_api_keys"`);
    await queryRunner.query(
      `CREATE INDEX "IDX_a3baee01d8408cd3c0f89a9a97" ON "api_keys" ("user_id") `,
    );
    await queryRunner.query(`DROP INDEX "IDX_a3baee01d8408cd3c0f89a9a97"`);
    await queryRunner.query(`DROP TABLE "api_keys"`);
    await queryRunner.query(`DROP TABLE "users"`);
  }
}
