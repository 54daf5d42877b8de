import { MigrationInterface, QueryRunner } from 'typeorm';

export class Runs1795496969351 implements MigrationInterface {
  name = 'Runs1795496969351';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "idempotency_keys" ("caller" varchar(48) NOT NULL, "key" varchar(255) NOT NULL, "body_hash" varchar(64) NOT NULL, "run_id" varchar(36) NOT NULL, "status" integer, "answer" text, "created_at" datetime NOT NULL, "expires_at" datetime, PRIMARY KEY ("caller", "key"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_e5fc0731b6752a8e9194fa265e" ON "idempotency_keys" ("expires_at") `,
    );
    await queryRunner.query(
      `CREATE TABLE "ingestion_runs" ("id" varchar(36) PRIMARY KEY NOT NULL, "status" varchar(16) NOT NULL, "dry_run" boolean, "format" varchar(16) NOT NULL DEFAULT ('json'), "mode" varchar(16), "source" varchar(100), "delete_stale" boolean, "actor_user_id" varchar(36) NOT NULL, "actor_email" varchar(255) NOT NULL, "actor_api_key_id" varchar(36), "actor_api_key_prefix" varchar(32), "request_id" varchar(128) NOT NULL, "body_bytes" integer, "instance_id" integer NOT NULL, "started_at" datetime NOT NULL, "finished_at" datetime, "stats" text, "error" text)`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_84f758003e0fae130be5c13adf" ON "ingestion_runs" ("source", "started_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_20daeeaad1211c97eb1543fe6f" ON "ingestion_runs" ("status", "started_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_dce7087547d93b14226a8104f0" ON "ingestion_runs" ("started_at", "id") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_dce7087547d93b14226a8104f0"`);
    await queryRunner.query(`DROP INDEX "IDX_20daeeaad1211c97eb1543fe6f"`);
    await queryRunner.query(`DROP INDEX "IDX_84f758003e0fae130be5c13adf"`);
    await queryRunner.query(`DROP TABLE "ingestion_runs"`);
    await queryRunner.query(`DROP INDEX "IDX_e5fc0731b6752a8e9194fa265e"`);
    await queryRunner.query(`DROP TABLE "idempotency_keys"`);
  }
}
