import { MigrationInterface, QueryRunner } from 'typeorm';

export class Events1795915445210 implements MigrationInterface {
  name = 'Events1795915445210';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "webhooks" ("id" character varying(36) NOT NULL, "url" character varying(2048) NOT NULL, "events" text NOT NULL, "filter" text, "enabled" boolean NOT NULL, "secret" character varying(64) NOT NULL, "failing_since" TIMESTAMP WITH TIME ZONE, "disabled_reason" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_9e8795cfc899ab7bdaa831e8527" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "webhook_events" ("id" character varying(36) NOT NULL, "type" character varying(32) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "body" text NOT NULL, CONSTRAINT "PK_4cba37e6a0acb5e1fc49c34ebfd" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "webhook_deliveries" ("id" character varying(36) NOT NULL, "webhook_id" character varying(36) NOT NULL, "event_id" character varying(36) NOT NULL, "type" character varying(32) NOT NULL, "status" character varying(16) NOT NULL, "attempts" integer NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "last_attempt_at" TIMESTAMP WITH TIME ZONE, "response_status" integer, "last_error" text, "next_attempt_at" TIMESTAMP WITH TIME ZONE, "claimed_until" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_535dd409947fb6d8fc6dfc0112a" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_27d1ee90033bdafe0ffe8f1be6" ON "webhook_deliveries"  ("event_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_85aefb7b9cff1da38cb31ad1e6" ON "webhook_deliveries"  ("webhook_id", "id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_948c45a179697342959ae172c1" ON "webhook_deliveries"  ("status", "id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "feeds" ("name" character varying(100) NOT NULL, "expected_every_seconds" integer, "expected_since" TIMESTAMP WITH TIME ZONE, "late_since" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_586444ca5cc6de28e59f68c9ee4" PRIMARY KEY ("name"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "event_marks" ("name" character varying(64) NOT NULL, "checked_until" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_52a2203f5486e9fefdbb130f1c4" PRIMARY KEY ("name"))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "event_marks"`);
    await queryRunner.query(`DROP TABLE "feeds"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_948c45a179697342959ae172c1"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_85aefb7b9cff1da38cb31ad1e6"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_27d1ee90033bdafe0ffe8f1be6"`);
    await queryRunner.query(`DROP TABLE "webhook_deliveries"`);
    await queryRunner.query(`DROP TABLE "webhook_events"`);
    await queryRunner.query(`DROP TABLE "webhooks"`);
  }
}
