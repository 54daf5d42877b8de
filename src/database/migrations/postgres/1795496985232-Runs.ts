import { MigrationInterface, QueryRunner } from 'typeorm';

export class Runs1795496985232 implements MigrationInterface {
  name = 'Runs1795496985232';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "idempotency_keys" ("caller" character varying(48) NOT NULL, "key" character varying(255) NOT NULL, "body_hash" character varying(64) NOT NULL, "run_id" character varying(36) NOT NULL, "status" integer, "answer" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_a661c9488678a6eb48ebb65eb63" PRIMARY KEY ("caller", "key"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_e5fc0731b6752a8e9194fa265e" ON "idempotency_keys"  ("expires_at") `,
    );
    await queryRunner.query(
      `CREATE TABLE "ingestion_runs" ("id" character varying(36) NOT NULL, "status" character varying(16) NOT NULL, "dry_run" boolean, "format" character varying(16) NOT NULL DEFAULT 'json', "mode" character varying(16), "source" character varying(100), "delete_stale" boolean, "actor_user_id" character varying(36) NOT NULL, "actor_email" character varying(255) NOT NULL, "actor_api_key_id" character varying(36), "actor_api_key_prefix" character varying(32), "request_id" character varying(128) NOT NULL, "body_bytes" integer, "instance_id" integer NOT NULL, "started_at" TIMESTAMP WITH TIME ZONE NOT NULL, "finished_at" TIMESTAMP WITH TIME ZONE, "stats" text, "error" text, CONSTRAINT "PK_e9476c02c52a0dac026b859858a" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_84f758003e0fae130be5c13adf" ON "ingestion_runs"  ("source", "started_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_20daeeaad1211c97eb1543fe6f" ON "ingestion_runs"  ("status", "started_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_dce7087547d93b14226a8104f0" ON "ingestion_runs"  ("started_at", "id") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_dce7087547d93b14226a8104f0"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_20daeeaad1211c97eb1543fe6f"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_84f758003e0fae130be5c13adf"`);
    await queryRunner.query(`DROP TABLE "ingestion_runs"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_e5fc0731b6752a8e9194fa265e"`);
    await queryRunner.query(`DROP TABLE "idempotency_keys"`);
  }
}
