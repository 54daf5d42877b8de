import { MigrationInterface, QueryRunner } from 'typeorm';

export class WebhookHolds1795940460305 implements MigrationInterface {
  name = 'WebhookHolds1795940460305';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_948c45a179697342959ae172c1"`);
    await queryRunner.query(`DROP INDEX "IDX_df4af2a9c1c04aad5fd69a0cb3"`);
    await queryRunner.query(`DROP INDEX "IDX_85aefb7b9cff1da38cb31ad1e6"`);
    await queryRunner.query(`DROP INDEX "IDX_27d1ee90033bdafe0ffe8f1be6"`);
    await queryRunner.query(
      `CREATE TABLE "temporary_webhook_deliveries" ("id" varchar(36) PRIMARY KEY NOT NULL, "webhook_id" varchar(36) NOT NULL, "event_id" varchar(36) NOT NULL, "type" varchar(32) NOT NULL, "status" varchar(16) NOT NULL, "attempts" integer NOT NULL, "created_at" datetime NOT NULL, "last_attempt_at" datetime, "response_status" integer, "last_error" text, "next_attempt_at" datetime)`,
    );
    await queryRunner.query(
      `INSERT INTO "temporary_webhook_deliveries"("id", "webhook_id", "event_id", "type", "status", "attempts", "created_at", "last_attempt_at", "response_status", "last_error", "next_attempt_at") SELECT "id", "webhook_id", "event_id", "type", "status", "attempts", "created_at", "last_attempt_at", "response_status", "last_error", "next_attempt_at" FROM "webhook_deliveries"`,
    );
    await queryRunner.query(`DROP TABLE "webhook_deliveries"`);
    await queryRunner.query(
      `ALTER TABLE "temporary_webhook_deliveries" RENAME TO "webhook_deliveries"`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_df4af2a9c1c04aad5fd69a0cb3" ON "webhook_deliveries" ("webhook_id", "status", "id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_85aefb7b9cff1da38cb31ad1e6" ON "webhook_deliveries" ("webhook_id", "id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_27d1ee90033bdafe0ffe8f1be6" ON "webhook_deliveries" ("event_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "temporary_webhooks" ("id" varchar(36) PRIMARY KEY NOT NULL, "url" varchar(2048) NOT NULL, "events" text NOT NULL, "filter" text, "enabled" boolean NOT NULL, "secret" varchar(64) NOT NULL, "failing_since" datetime, "disabled_reason" text, "created_at" datetime NOT NULL, "updated_at" datetime NOT NULL, "claimed_until" datetime)`,
    );
    await queryRunner.query(
      `INSERT INTO "temporary_webhooks"("id", "url", "events", "filter", "enabled", "secret", "failing_since", "disabled_reason", "created_at", "updated_at") SELECT "id", "url", "events", "filter", "enabled", "secret", "failing_since", "disabled_reason", "created_at", "updated_at" FROM "webhooks"`,
    );
    await queryRunner.query(`DROP TABLE "webhooks"`);
    await queryRunner.query(`ALTER TABLE "temporary_webhooks" RENAME TO "webhooks"`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhooks" RENAME TO "temporary_webhooks"`);
    await queryRunner.query(
      `CREATE TABLE "webhooks" ("id" varchar(36) PRIMARY KEY NOT NULL, "url" varchar(2048) NOT NULL, "events" text NOT NULL, "filter" text, "enabled" boolean NOT NULL, "secret" varchar(64) NOT NULL, "failing_since" datetime, "disabled_reason" text, "created_at" datetime NOT NULL, "updated_at" datetime NOT NULL)`,
    );
    await queryRunner.query(
      `INSERT INTO "webhooks"("id", "url", "events", "filter", "enabled", "secret", "failing_since", "disabled_reason", "created_at", "updated_at") SELECT "id", "url", "events", "filter", "enabled", "secret", "failing_since", "disabled_reason", "created_at", "updated_at" FROM "temporary_webhooks"`,
    );
    await queryRunner.query(`DROP TABLE "temporary_webhooks"`);
    await queryRunner.query(`DROP INDEX "IDX_27d1ee90033bdafe0ffe8f1be6"`);
    await queryRunner.query(`DROP INDEX "IDX_85aefb7b9cff1da38cb31ad1e6"`);
    await queryRunner.query(`DROP INDEX "IDX_df4af2a9c1c04aad5fd69a0cb3"`);
    await queryRunner.query(
      `ALTER TABLE "webhook_deliveries" RENAME TO "temporary_webhook_deliveries"`,
    );
    await queryRunner.query(
      `CREATE TABLE "webhook_deliveries" ("id" varchar(36) PRIMARY KEY NOT NULL, "webhook_id" varchar(36) NOT NULL, "event_id" varchar(36) NOT NULL, "type" varchar(32) NOT NULL, "status" varchar(16) NOT NULL, "attempts" integer NOT NULL, "created_at" datetime NOT NULL, "last_attempt_at" datetime, "response_status" integer, "last_error" text, "next_attempt_at" datetime, "claimed_until" datetime)`,
    );
    await queryRunner.query(
      `INSERT INTO "webhook_deliveries"("id", "webhook_id", "event_id", "type", "status", "attempts", "created_at", "last_attempt_at", "response_status", "last_error", "next_attempt_at") SELECT "id", "webhook_id", "event_id", "type", "status", "attempts", "created_at", "last_attempt_at", "response_status", "last_error", "next_attempt_at" FROM "temporary_webhook_deliveries"`,
    );
    await queryRunner.query(`DROP TABLE "temporary_webhook_deliveries"`);
    await queryRunner.query(
      `CREATE INDEX "IDX_27d1ee90033bdafe0ffe8f1be6" ON "webhook_deliveries" ("event_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_85aefb7b9cff1da38cb31ad1e6" ON "webhook_deliveries" ("webhook_id", "id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_df4af2a9c1c04aad5fd69a0cb3" ON "webhook_deliveries" ("webhook_id", "status", "id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_948c45a179697342959ae172c1" ON "webhook_deliveries" ("status", "id") `,
    );
  }
}
