import { MigrationInterface, QueryRunner } from 'typeorm';
import { dropWhatTheSchemaBeforeScopesCannotHold } from '../access-rollback.js';

// Generated, then edited: the users table made once with its final columns, the keys kept
// across it and given every scope; down() keeps what the schema before it can hold.

export class ServiceAccountsScopedKeys1795916948858 implements MigrationInterface {
  name = 'ServiceAccountsScopedKeys1795916948858';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_106cadbdd77493938fb773d838"`);
    await queryRunner.query(`DROP INDEX "IDX_0d956503085cd791d0aeebb1f7"`);
    await queryRunner.query(
      `CREATE TABLE "temporary_change_sets" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "actor_user_id" varchar(36) NOT NULL, "actor_email" varchar(255) NOT NULL, "actor_api_key_id" varchar(36), "actor_api_key_prefix" varchar(32), "request_id" varchar(128) NOT NULL, "run_id" varchar(36))`,
    );
    await queryRunner.query(
      `INSERT INTO "temporary_change_sets"("id", "actor_user_id", "actor_email", "actor_api_key_id", "actor_api_key_prefix", "request_id", "run_id") SELECT "id", "actor_user_id", "actor_email", "actor_api_key_id", "actor_api_key_prefix", "request_id", "run_id" FROM "change_sets"`,
    );
    await queryRunner.query(`DROP TABLE "change_sets"`);
    await queryRunner.query(`ALTER TABLE "temporary_change_sets" RENAME TO "change_sets"`);
    await queryRunner.query(
      `CREATE INDEX "IDX_106cadbdd77493938fb773d838" ON "change_sets" ("run_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_0d956503085cd791d0aeebb1f7" ON "change_sets" ("actor_user_id") `,
    );
    await queryRunner.query(`DROP INDEX "IDX_dce7087547d93b14226a8104f0"`);
    await queryRunner.query(`DROP INDEX "IDX_20daeeaad1211c97eb1543fe6f"`);
    await queryRunner.query(`DROP INDEX "IDX_84f758003e0fae130be5c13adf"`);
    await queryRunner.query(
      `CREATE TABLE "temporary_ingestion_runs" ("id" varchar(36) PRIMARY KEY NOT NULL, "status" varchar(16) NOT NULL, "dry_run" boolean, "format" varchar(16) NOT NULL DEFAULT ('json'), "mode" varchar(16), "source" varchar(100), "delete_stale" boolean, "actor_user_id" varchar(36) NOT NULL, "actor_email" varchar(255) NOT NULL, "actor_api_key_id" varchar(36), "actor_api_key_prefix" varchar(32), "request_id" varchar(128) NOT NULL, "body_bytes" integer, "instance_id" integer NOT NULL, "started_at" datetime NOT NULL, "finished_at" datetime, "stats" text, "error" text)`,
    );
    await queryRunner.query(
      `INSERT INTO "temporary_ingestion_runs"("id", "status", "dry_run", "format", "mode", "source", "delete_stale", "actor_user_id", "actor_email", "actor_api_key_id", "actor_api_key_prefix", "request_id", "body_bytes", "instance_id", "started_at", "finished_at", "stats", "error") SELECT "id", "status", "dry_run", "format", "mode", "source", "delete_stale", "actor_user_id", "actor_email", "actor_api_key_id", "actor_api_key_prefix", "request_id", "body_bytes", "instance_id", "started_at", "finished_at", "stats", "error" FROM "ingestion_runs"`,
    );
    await queryRunner.query(`DROP TABLE "ingestion_runs"`);
    await queryRunner.query(`ALTER TABLE "temporary_ingestion_runs" RENAME TO "ingestion_runs"`);
    await queryRunner.query(
      `CREATE INDEX "IDX_dce7087547d93b14226a8104f0" ON "ingestion_runs" ("started_at", "id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_20daeeaad1211c97eb1543fe6f" ON "ingestion_runs" ("status", "started_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_84f758003e0fae130be5c13adf" ON "ingestion_runs" ("source", "started_at") `,
    );
    // api_keys refers to users ON DELETE CASCADE, and diagrams ON DELETE SET NULL: dropping the
    // old users table deletes every key and every diagram's owner. Both are copied aside first,
    // the keys' table is made again from its copy and the owners are put back.
    await queryRunner.query(`CREATE TEMPORARY TABLE "saved_api_keys" AS SELECT * FROM "api_keys"`);
    await queryRunner.query(
      `CREATE TEMPORARY TABLE "saved_owners" AS SELECT "id", "owner_id" FROM "diagrams" WHERE "owner_id" IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE TABLE "temporary_users" ("id" varchar(36) PRIMARY KEY NOT NULL, "email" varchar(320), "name" varchar(255) NOT NULL, "role" varchar(16) NOT NULL, "password_hash" varchar(255), "token_version" integer NOT NULL DEFAULT (0), "created_at" datetime NOT NULL DEFAULT (datetime('now')), "updated_at" datetime NOT NULL DEFAULT (datetime('now')), "kind" varchar(16) NOT NULL DEFAULT ('person'), CONSTRAINT "UQ_97672ac88f789774dd47f7c8be3" UNIQUE ("email"))`,
    );
    await queryRunner.query(
      `INSERT INTO "temporary_users"("id", "email", "name", "role", "password_hash", "token_version", "created_at", "updated_at") SELECT "id", "email", "name", "role", "password_hash", "token_version", "created_at", "updated_at" FROM "users"`,
    );
    await queryRunner.query(`DROP TABLE "users"`);
    await queryRunner.query(`ALTER TABLE "temporary_users" RENAME TO "users"`);
    await queryRunner.query(
      `UPDATE "diagrams" SET "owner_id" = (SELECT "owner_id" FROM "saved_owners" WHERE "saved_owners"."id" = "diagrams"."id") WHERE "id" IN (SELECT "id" FROM "saved_owners")`,
    );
    await queryRunner.query(`DROP TABLE "saved_owners"`);
    await queryRunner.query(`DROP INDEX "IDX_a3baee01d8408cd3c0f89a9a97"`);
    await queryRunner.query(
      `CREATE TABLE "temporary_api_keys" ("id" varchar(36) PRIMARY KEY NOT NULL, "user_id" varchar(36) NOT NULL, "name" varchar(255) NOT NULL, "prefix" varchar(32) NOT NULL, "key_hash" varchar(64) NOT NULL, "expires_at" datetime, "last_used_at" datetime, "created_at" datetime NOT NULL DEFAULT (datetime('now')), "last_used_ip" varchar(64), "scopes" text NOT NULL, "sources" text, "allowed_cidrs" text, CONSTRAINT "UQ_6f6105c8efe05b310d046cbdb3d" UNIQUE ("prefix"), CONSTRAINT "FK_a3baee01d8408cd3c0f89a9a973" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    // Keys made before scopes hold all four: their user's role alone bounds them, as before.
    await queryRunner.query(
      `INSERT INTO "temporary_api_keys"("id", "user_id", "name", "prefix", "key_hash", "expires_at", "last_used_at", "created_at", "scopes") SELECT "id", "user_id", "name", "prefix", "key_hash", "expires_at", "last_used_at", "created_at", '["read","write","ingest","admin"]' FROM "saved_api_keys"`,
    );
    await queryRunner.query(`DROP TABLE "saved_api_keys"`);
    await queryRunner.query(`DROP TABLE "api_keys"`);
    await queryRunner.query(`ALTER TABLE "temporary_api_keys" RENAME TO "api_keys"`);
    await queryRunner.query(
      `CREATE INDEX "IDX_a3baee01d8408cd3c0f89a9a97" ON "api_keys" ("user_id") `,
    );
    await queryRunner.query(`DROP INDEX "IDX_106cadbdd77493938fb773d838"`);
    await queryRunner.query(`DROP INDEX "IDX_0d956503085cd791d0aeebb1f7"`);
    await queryRunner.query(
      `CREATE TABLE "temporary_change_sets" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "actor_user_id" varchar(36) NOT NULL, "actor_email" varchar(255), "actor_api_key_id" varchar(36), "actor_api_key_prefix" varchar(32), "request_id" varchar(128) NOT NULL, "run_id" varchar(36))`,
    );
    await queryRunner.query(
      `INSERT INTO "temporary_change_sets"("id", "actor_user_id", "actor_email", "actor_api_key_id", "actor_api_key_prefix", "request_id", "run_id") SELECT "id", "actor_user_id", "actor_email", "actor_api_key_id", "actor_api_key_prefix", "request_id", "run_id" FROM "change_sets"`,
    );
    await queryRunner.query(`DROP TABLE "change_sets"`);
    await queryRunner.query(`ALTER TABLE "temporary_change_sets" RENAME TO "change_sets"`);
    await queryRunner.query(
      `CREATE INDEX "IDX_106cadbdd77493938fb773d838" ON "change_sets" ("run_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_0d956503085cd791d0aeebb1f7" ON "change_sets" ("actor_user_id") `,
    );
    await queryRunner.query(`DROP INDEX "IDX_dce7087547d93b14226a8104f0"`);
    await queryRunner.query(`DROP INDEX "IDX_20daeeaad1211c97eb1543fe6f"`);
    await queryRunner.query(`DROP INDEX "IDX_84f758003e0fae130be5c13adf"`);
    await queryRunner.query(
      `CREATE TABLE "temporary_ingestion_runs" ("id" varchar(36) PRIMARY KEY NOT NULL, "status" varchar(16) NOT NULL, "dry_run" boolean, "format" varchar(16) NOT NULL DEFAULT ('json'), "mode" varchar(16), "source" varchar(100), "delete_stale" boolean, "actor_user_id" varchar(36) NOT NULL, "actor_email" varchar(255), "actor_api_key_id" varchar(36), "actor_api_key_prefix" varchar(32), "request_id" varchar(128) NOT NULL, "body_bytes" integer, "instance_id" integer NOT NULL, "started_at" datetime NOT NULL, "finished_at" datetime, "stats" text, "error" text)`,
    );
    await queryRunner.query(
      `INSERT INTO "temporary_ingestion_runs"("id", "status", "dry_run", "format", "mode", "source", "delete_stale", "actor_user_id", "actor_email", "actor_api_key_id", "actor_api_key_prefix", "request_id", "body_bytes", "instance_id", "started_at", "finished_at", "stats", "error") SELECT "id", "status", "dry_run", "format", "mode", "source", "delete_stale", "actor_user_id", "actor_email", "actor_api_key_id", "actor_api_key_prefix", "request_id", "body_bytes", "instance_id", "started_at", "finished_at", "stats", "error" FROM "ingestion_runs"`,
    );
    await queryRunner.query(`DROP TABLE "ingestion_runs"`);
    await queryRunner.query(`ALTER TABLE "temporary_ingestion_runs" RENAME TO "ingestion_runs"`);
    await queryRunner.query(
      `CREATE INDEX "IDX_dce7087547d93b14226a8104f0" ON "ingestion_runs" ("started_at", "id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_20daeeaad1211c97eb1543fe6f" ON "ingestion_runs" ("status", "started_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_84f758003e0fae130be5c13adf" ON "ingestion_runs" ("source", "started_at") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await dropWhatTheSchemaBeforeScopesCannotHold(queryRunner);
    // Each table made again as it was, from its rows: a new table, filled, then renamed to the
    // old one's name once that is dropped (renaming the old one instead would carry the other
    // tables' references to it along, to a table about to go).
    await queryRunner.query(`DROP INDEX "IDX_dce7087547d93b14226a8104f0"`);
    await queryRunner.query(`DROP INDEX "IDX_20daeeaad1211c97eb1543fe6f"`);
    await queryRunner.query(`DROP INDEX "IDX_84f758003e0fae130be5c13adf"`);
    await queryRunner.query(
      `CREATE TABLE "temporary_ingestion_runs" ("id" varchar(36) PRIMARY KEY NOT NULL, "status" varchar(16) NOT NULL, "dry_run" boolean, "format" varchar(16) NOT NULL DEFAULT ('json'), "mode" varchar(16), "source" varchar(100), "delete_stale" boolean, "actor_user_id" varchar(36) NOT NULL, "actor_email" varchar(255) NOT NULL, "actor_api_key_id" varchar(36), "actor_api_key_prefix" varchar(32), "request_id" varchar(128) NOT NULL, "body_bytes" integer, "instance_id" integer NOT NULL, "started_at" datetime NOT NULL, "finished_at" datetime, "stats" text, "error" text)`,
    );
    await queryRunner.query(
      `INSERT INTO "temporary_ingestion_runs"("id", "status", "dry_run", "format", "mode", "source", "delete_stale", "actor_user_id", "actor_email", "actor_api_key_id", "actor_api_key_prefix", "request_id", "body_bytes", "instance_id", "started_at", "finished_at", "stats", "error") SELECT "id", "status", "dry_run", "format", "mode", "source", "delete_stale", "actor_user_id", "actor_email", "actor_api_key_id", "actor_api_key_prefix", "request_id", "body_bytes", "instance_id", "started_at", "finished_at", "stats", "error" FROM "ingestion_runs"`,
    );
    await queryRunner.query(`DROP TABLE "ingestion_runs"`);
    await queryRunner.query(`ALTER TABLE "temporary_ingestion_runs" RENAME TO "ingestion_runs"`);
    await queryRunner.query(
      `CREATE INDEX "IDX_dce7087547d93b14226a8104f0" ON "ingestion_runs" ("started_at", "id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_20daeeaad1211c97eb1543fe6f" ON "ingestion_runs" ("status", "started_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_84f758003e0fae130be5c13adf" ON "ingestion_runs" ("source", "started_at") `,
    );
    await queryRunner.query(`DROP INDEX "IDX_106cadbdd77493938fb773d838"`);
    await queryRunner.query(`DROP INDEX "IDX_0d956503085cd791d0aeebb1f7"`);
    await queryRunner.query(
      `CREATE TABLE "temporary_change_sets" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "actor_user_id" varchar(36) NOT NULL, "actor_email" varchar(255) NOT NULL, "actor_api_key_id" varchar(36), "actor_api_key_prefix" varchar(32), "request_id" varchar(128) NOT NULL, "run_id" varchar(36))`,
    );
    await queryRunner.query(
      `INSERT INTO "temporary_change_sets"("id", "actor_user_id", "actor_email", "actor_api_key_id", "actor_api_key_prefix", "request_id", "run_id") SELECT "id", "actor_user_id", "actor_email", "actor_api_key_id", "actor_api_key_prefix", "request_id", "run_id" FROM "change_sets"`,
    );
    await queryRunner.query(`DROP TABLE "change_sets"`);
    await queryRunner.query(`ALTER TABLE "temporary_change_sets" RENAME TO "change_sets"`);
    await queryRunner.query(
      `CREATE INDEX "IDX_106cadbdd77493938fb773d838" ON "change_sets" ("run_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_0d956503085cd791d0aeebb1f7" ON "change_sets" ("actor_user_id") `,
    );
    // As in up(): the keys and the diagrams' owners are copied aside before the users table goes.
    await queryRunner.query(`CREATE TEMPORARY TABLE "saved_api_keys" AS SELECT * FROM "api_keys"`);
    await queryRunner.query(
      `CREATE TEMPORARY TABLE "saved_owners" AS SELECT "id", "owner_id" FROM "diagrams" WHERE "owner_id" IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE TABLE "temporary_users" ("id" varchar(36) PRIMARY KEY NOT NULL, "email" varchar(320) NOT NULL, "name" varchar(255) NOT NULL, "role" varchar(16) NOT NULL, "password_hash" varchar(255) NOT NULL, "token_version" integer NOT NULL DEFAULT (0), "created_at" datetime NOT NULL DEFAULT (datetime('now')), "updated_at" datetime NOT NULL DEFAULT (datetime('now')), CONSTRAINT "UQ_97672ac88f789774dd47f7c8be3" UNIQUE ("email"))`,
    );
    await queryRunner.query(
      `INSERT INTO "temporary_users"("id", "email", "name", "role", "password_hash", "token_version", "created_at", "updated_at") SELECT "id", "email", "name", "role", "password_hash", "token_version", "created_at", "updated_at" FROM "users"`,
    );
    await queryRunner.query(`DROP TABLE "users"`);
    await queryRunner.query(`ALTER TABLE "temporary_users" RENAME TO "users"`);
    await queryRunner.query(
      `UPDATE "diagrams" SET "owner_id" = (SELECT "owner_id" FROM "saved_owners" WHERE "saved_owners"."id" = "diagrams"."id") WHERE "id" IN (SELECT "id" FROM "saved_owners")`,
    );
    await queryRunner.query(`DROP TABLE "saved_owners"`);
    await queryRunner.query(`DROP INDEX "IDX_a3baee01d8408cd3c0f89a9a97"`);
    await queryRunner.query(
      `CREATE TABLE "temporary_api_keys" ("id" varchar(36) PRIMARY KEY NOT NULL, "user_id" varchar(36) NOT NULL, "name" varchar(255) NOT NULL, "prefix" varchar(32) NOT NULL, "key_hash" varchar(64) NOT NULL, "expires_at" datetime, "last_used_at" datetime, "created_at" datetime NOT NULL DEFAULT (datetime('now')), CONSTRAINT "UQ_6f6105c8efe05b310d046cbdb3d" UNIQUE ("prefix"), CONSTRAINT "FK_a3baee01d8408cd3c0f89a9a973" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await queryRunner.query(
      `INSERT INTO "temporary_api_keys"("id", "user_id", "name", "prefix", "key_hash", "expires_at", "last_used_at", "created_at") SELECT "id", "user_id", "name", "prefix", "key_hash", "expires_at", "last_used_at", "created_at" FROM "saved_api_keys"`,
    );
    await queryRunner.query(`DROP TABLE "saved_api_keys"`);
    await queryRunner.query(`DROP TABLE "api_keys"`);
    await queryRunner.query(`ALTER TABLE "temporary_api_keys" RENAME TO "api_keys"`);
    await queryRunner.query(
      `CREATE INDEX "IDX_a3baee01d8408cd3c0f89a9a97" ON "api_keys" ("user_id") `,
    );
  }
}
