import { MigrationInterface, QueryRunner } from 'typeorm';

export class Events1795915440486 implements MigrationInterface {
  name = 'Events1795915440486';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "webhooks" ("id" varchar(36) PRIMARY KEY NOT NULL, "url" varchar(2048) NOT NULL, "events" text NOT NULL, "filter" text, "enabled" boolean NOT NULL, "secret" varchar(64) NOT NULL, "failing_since" datetime, "disabled_reason" text, "created_at" datetime NOT NULL, "updated_at" datetime NOT NULL)`,
    );
    await queryRunner.query(
      `CREATE TABLE "webhook_events" ("id" varchar(36) PRIMARY KEY NOT NULL, "type" varchar(32) NOT NULL, "created_at" datetime NOT NULL, "body" text NOT NULL)`,
    );
    await queryRunner.query(
      `CREATE TABLE "webhook_deliveries" ("id" varchar(36) PRIMARY KEY NOT NULL, "webhook_id" varchar(36) NOT NULL, "event_id" varchar(36) NOT NULL, "type" varchar(32) NOT NULL, "status" varchar(16) NOT NULL, "attempts" integer NOT NULL, "created_at" datetime NOT NULL, "last_attempt_at" datetime, "response_status" integer, "last_error" text, "next_attempt_at" datetime, "claimed_until" datetime)`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_27d1ee90033bdafe0ffe8f1be6" ON "webhook_deliveries" ("event_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_85aefb7b9cff1da38cb31ad1e6" ON "webhook_deliveries" ("webhook_id", "id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_948c45a179697342959ae172c1" ON "webhook_deliveries" ("status", "id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "feeds" ("name" varchar(100) PRIMARY KEY NOT NULL, "expected_every_seconds" integer, "expected_since" datetime, "late_since" datetime)`,
    );
    await queryRunner.query(
      `CREATE TABLE "event_marks" ("name" varchar(64) PRIMARY KEY NOT NULL, "checked_until" datetime NOT NULL)`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "event_marks"`);
    await queryRunner.query(`DROP TABLE "feeds"`);
    await queryRunner.query(`DROP INDEX "IDX_948c45a179697342959ae172c1"`);
    await queryRunner.query(`DROP INDEX "IDX_85aefb7b9cff1da38cb31ad1e6"`);
    await queryRunner.query(`DROP INDEX "IDX_27d1ee90033bdafe0ffe8f1be6"`);
    await queryRunner.query(`DROP TABLE "webhook_deliveries"`);
    await queryRunner.query(`DROP TABLE "webhook_events"`);
    await queryRunner.query(`DROP TABLE "webhooks"`);
  }
}
