import { MigrationInterface, QueryRunner } from 'typeorm';

export class Findings1795876500649 implements MigrationInterface {
  name = 'Findings1795876500649';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "findings" ("id" varchar(36) PRIMARY KEY NOT NULL, "asset_id" varchar(200) NOT NULL, "vuln_id" varchar(64) NOT NULL, "score" double precision, "severity" varchar(8) NOT NULL, "summary" varchar(2000), "published_date" date, "status" varchar(16) NOT NULL, "first_seen_at" datetime NOT NULL, "last_seen_at" datetime NOT NULL, "fixed_at" datetime, "reopened_at" datetime, "reopen_count" integer NOT NULL DEFAULT (0), "reason" varchar(1000), "accepted_until" datetime, "triaged_by" text)`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_dfcc90fda71cf0a063d29d2ca7" ON "findings" ("fixed_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_9f86a559942f267dc67dc9a41f" ON "findings" ("first_seen_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_86a74bc4894700956b5b002c54" ON "findings" ("vuln_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_dee44922aee69b65dd11fe717a" ON "findings" ("status", "severity") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_7ea682a339a10126bb2b2c8dc0" ON "findings" ("severity", "score", "id") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "IDX_42b29876c1a7618416ddd2d7f3" ON "findings" ("asset_id", "vuln_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "finding_periods" ("finding_id" varchar(36) NOT NULL, "opened_at" datetime NOT NULL, "closed_at" datetime, PRIMARY KEY ("finding_id", "opened_at"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_8b435ee48d42fb9c5d8e38c7e0" ON "finding_periods" ("closed_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_f6ab374a86af89aba15ae9804f" ON "finding_periods" ("opened_at") `,
    );
    await queryRunner.query(
      `CREATE TABLE "finding_sources" ("finding_id" varchar(36) NOT NULL, "source" varchar(100) NOT NULL, "position" integer NOT NULL, PRIMARY KEY ("finding_id", "source"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_ad38416aff329708cb6374babf" ON "finding_sources" ("source") `,
    );
    await queryRunner.query(`DROP INDEX "IDX_dfcc90fda71cf0a063d29d2ca7"`);
    await queryRunner.query(`DROP INDEX "IDX_9f86a559942f267dc67dc9a41f"`);
    await queryRunner.query(`DROP INDEX "IDX_86a74bc4894700956b5b002c54"`);
    await queryRunner.query(`DROP INDEX "IDX_dee44922aee69b65dd11fe717a"`);
    await queryRunner.query(`DROP INDEX "IDX_7ea682a339a10126bb2b2c8dc0"`);
    await queryRunner.query(`DROP INDEX "IDX_42b29876c1a7618416ddd2d7f3"`);
    await queryRunner.query(
      `CREATE TABLE "temporary_findings" ("id" varchar(36) PRIMARY KEY NOT NULL, "asset_id" varchar(200) NOT NULL, "vuln_id" varchar(64) NOT NULL, "score" double precision, "severity" varchar(8) NOT NULL, "summary" varchar(2000), "published_date" date, "status" varchar(16) NOT NULL, "first_seen_at" datetime NOT NULL, "last_seen_at" datetime NOT NULL, "fixed_at" datetime, "reopened_at" datetime, "reopen_count" integer NOT NULL DEFAULT (0), "reason" varchar(1000), "accepted_until" datetime, "triaged_by" text, CONSTRAINT "FK_7d894b4934a315f8259c5515384" FOREIGN KEY ("asset_id") REFERENCES "assets" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await queryRunner.query(
      `INSERT INTO "temporary_findings"("id", "asset_id", "vuln_id", "score", "severity", "summary", "published_date", "status", "first_seen_at", "last_seen_at", "fixed_at", "reopened_at", "reopen_count", "reason", "accepted_until", "triaged_by") SELECT "id", "asset_id", "vuln_id", "score", "severity", "summary", "published_date", "status", "first_seen_at", "last_seen_at", "fixed_at", "reopened_at", "reopen_count", "reason", "accepted_until", "triaged_by" FROM "findings"`,
    );
    await queryRunner.query(`DROP TABLE "findings"`);
    await queryRunner.query(`ALTER TABLE "temporary_findings" RENAME TO "findings"`);
    await queryRunner.query(
      `CREATE INDEX "IDX_dfcc90fda71cf0a063d29d2ca7" ON "findings" ("fixed_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_9f86a559942f267dc67dc9a41f" ON "findings" ("first_seen_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_86a74bc4894700956b5b002c54" ON "findings" ("vuln_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_dee44922aee69b65dd11fe717a" ON "findings" ("status", "severity") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_7ea682a339a10126bb2b2c8dc0" ON "findings" ("severity", "score", "id") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "IDX_42b29876c1a7618416ddd2d7f3" ON "findings" ("asset_id", "vuln_id") `,
    );
    await queryRunner.query(`DROP INDEX "IDX_8b435ee48d42fb9c5d8e38c7e0"`);
    await queryRunner.query(`DROP INDEX "IDX_f6ab374a86af89aba15ae9804f"`);
    await queryRunner.query(
      `CREATE TABLE "temporary_finding_periods" ("finding_id" varchar(36) NOT NULL, "opened_at" datetime NOT NULL, "closed_at" datetime, CONSTRAINT "FK_09750b8daeadc7c346361b27c57" FOREIGN KEY ("finding_id") REFERENCES "findings" ("id") ON DELETE CASCADE ON UPDATE NO ACTION, PRIMARY KEY ("finding_id", "opened_at"))`,
    );
    await queryRunner.query(
      `INSERT INTO "temporary_finding_periods"("finding_id", "opened_at", "closed_at") SELECT "finding_id", "opened_at", "closed_at" FROM "finding_periods"`,
    );
    await queryRunner.query(`DROP TABLE "finding_periods"`);
    await queryRunner.query(`ALTER TABLE "temporary_finding_periods" RENAME TO "finding_periods"`);
    await queryRunner.query(
      `CREATE INDEX "IDX_8b435ee48d42fb9c5d8e38c7e0" ON "finding_periods" ("closed_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_f6ab374a86af89aba15ae9804f" ON "finding_periods" ("opened_at") `,
    );
    await queryRunner.query(`DROP INDEX "IDX_ad38416aff329708cb6374babf"`);
    await queryRunner.query(
      `CREATE TABLE "temporary_finding_sources" ("finding_id" varchar(36) NOT NULL, "source" varchar(100) NOT NULL, "position" integer NOT NULL, CONSTRAINT "FK_657db5b382d04e14e6dae845626" FOREIGN KEY ("finding_id") REFERENCES "findings" ("id") ON DELETE CASCADE ON UPDATE NO ACTION, PRIMARY KEY ("finding_id", "source"))`,
    );
    await queryRunner.query(
      `INSERT INTO "temporary_finding_sources"("finding_id", "source", "position") SELECT "finding_id", "source", "position" FROM "finding_sources"`,
    );
    await queryRunner.query(`DROP TABLE "finding_sources"`);
    await queryRunner.query(`ALTER TABLE "temporary_finding_sources" RENAME TO "finding_sources"`);
    await queryRunner.query(
      `CREATE INDEX "IDX_ad38416aff329708cb6374babf" ON "finding_sources" ("source") `,
    );

    // Today's vulnerabilities become open findings, first and last seen at the asset's last
    // sighting (else its last update), reported by the asset's feeds; their table goes.
    await queryRunner.query(
      `INSERT INTO "findings" ("id", "asset_id", "vuln_id", "score", "severity", "summary", "published_date", "status", "first_seen_at", "last_seen_at", "reopen_count") SELECT lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))), v."asset_id", v."id", v."score", CASE WHEN v.score >= 9 THEN 'critical' WHEN v.score >= 7 THEN 'high' WHEN v.score >= 4 THEN 'medium' WHEN v.score > 0 THEN 'low' ELSE 'none' END, v."summary", v."published_date", 'open', COALESCE(a."last_seen_at", a."updated_at"), COALESCE(a."last_seen_at", a."updated_at"), 0 FROM "vulnerabilities" v JOIN "assets" a ON a."id" = v."asset_id"`,
    );
    await queryRunner.query(
      `INSERT INTO "finding_sources" ("finding_id", "source", "position") SELECT f."id", s."source", s."position" FROM "findings" f JOIN "asset_sources" s ON s."asset_id" = f."asset_id"`,
    );
    await queryRunner.query(
      `INSERT INTO "finding_periods" ("finding_id", "opened_at") SELECT "id", "first_seen_at" FROM "findings"`,
    );
    await queryRunner.query(`DROP TABLE "vulnerabilities"`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    // The asset's listed findings back as its vulnerabilities.
    await queryRunner.query(
      `CREATE TABLE "vulnerabilities" ("asset_id" varchar(200) NOT NULL, "id" varchar(64) NOT NULL, "score" double precision, "summary" varchar(2000), "published_date" date, CONSTRAINT "FK_faaeafc82dc1f1070834666e018" FOREIGN KEY ("asset_id") REFERENCES "assets" ("id") ON DELETE CASCADE ON UPDATE NO ACTION, PRIMARY KEY ("asset_id", "id"))`,
    );
    await queryRunner.query(
      `INSERT INTO "vulnerabilities" ("asset_id", "id", "score", "summary", "published_date") SELECT "asset_id", "vuln_id", "score", "summary", "published_date" FROM "findings" WHERE "status" IN ('open', 'accepted')`,
    );
    await queryRunner.query(`DROP INDEX "IDX_ad38416aff329708cb6374babf"`);
    await queryRunner.query(`ALTER TABLE "finding_sources" RENAME TO "temporary_finding_sources"`);
    await queryRunner.query(
      `CREATE TABLE "finding_sources" ("finding_id" varchar(36) NOT NULL, "source" varchar(100) NOT NULL, "position" integer NOT NULL, PRIMARY KEY ("finding_id", "source"))`,
    );
    await queryRunner.query(
      `INSERT INTO "finding_sources"("finding_id", "source", "position") SELECT "finding_id", "source", "position" FROM "temporary_finding_sources"`,
    );
    await queryRunner.query(`DROP TABLE "temporary_finding_sources"`);
    await queryRunner.query(
      `CREATE INDEX "IDX_ad38416aff329708cb6374babf" ON "finding_sources" ("source") `,
    );
    await queryRunner.query(`DROP INDEX "IDX_f6ab374a86af89aba15ae9804f"`);
    await queryRunner.query(`DROP INDEX "IDX_8b435ee48d42fb9c5d8e38c7e0"`);
    await queryRunner.query(`ALTER TABLE "finding_periods" RENAME TO "temporary_finding_periods"`);
    await queryRunner.query(
      `CREATE TABLE "finding_periods" ("finding_id" varchar(36) NOT NULL, "opened_at" datetime NOT NULL, "closed_at" datetime, PRIMARY KEY ("finding_id", "opened_at"))`,
    );
    await queryRunner.query(
      `INSERT INTO "finding_periods"("finding_id", "opened_at", "closed_at") SELECT "finding_id", "opened_at", "closed_at" FROM "temporary_finding_periods"`,
    );
    await queryRunner.query(`DROP TABLE "temporary_finding_periods"`);
    await queryRunner.query(
      `CREATE INDEX "IDX_f6ab374a86af89aba15ae9804f" ON "finding_periods" ("opened_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_8b435ee48d42fb9c5d8e38c7e0" ON "finding_periods" ("closed_at") `,
    );
    await queryRunner.query(`DROP INDEX "IDX_42b29876c1a7618416ddd2d7f3"`);
    await queryRunner.query(`DROP INDEX "IDX_7ea682a339a10126bb2b2c8dc0"`);
    await queryRunner.query(`DROP INDEX "IDX_dee44922aee69b65dd11fe717a"`);
    await queryRunner.query(`DROP INDEX "IDX_86a74bc4894700956b5b002c54"`);
    await queryRunner.query(`DROP INDEX "IDX_9f86a559942f267dc67dc9a41f"`);
    await queryRunner.query(`DROP INDEX "IDX_dfcc90fda71cf0a063d29d2ca7"`);
    await queryRunner.query(`ALTER TABLE "findings" RENAME TO "temporary_findings"`);
    await queryRunner.query(
      `CREATE TABLE "findings" ("id" varchar(36) PRIMARY KEY NOT NULL, "asset_id" varchar(200) NOT NULL, "vuln_id" varchar(64) NOT NULL, "score" double precision, "severity" varchar(8) NOT NULL, "summary" varchar(2000), "published_date" date, "status" varchar(16) NOT NULL, "first_seen_at" datetime NOT NULL, "last_seen_at" datetime NOT NULL, "fixed_at" datetime, "reopened_at" datetime, "reopen_count" integer NOT NULL DEFAULT (0), "reason" varchar(1000), "accepted_until" datetime, "triaged_by" text)`,
    );
    await queryRunner.query(
      `INSERT INTO "findings"("id", "asset_id", "vuln_id", "score", "severity", "summary", "published_date", "status", "first_seen_at", "last_seen_at", "fixed_at", "reopened_at", "reopen_count", "reason", "accepted_until", "triaged_by") SELECT "id", "asset_id", "vuln_id", "score", "severity", "summary", "published_date", "status", "first_seen_at", "last_seen_at", "fixed_at", "reopened_at", "reopen_count", "reason", "accepted_until", "triaged_by" FROM "temporary_findings"`,
    );
    await queryRunner.query(`DROP TABLE "temporary_findings"`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "IDX_42b29876c1a7618416ddd2d7f3" ON "findings" ("asset_id", "vuln_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_7ea682a339a10126bb2b2c8dc0" ON "findings" ("severity", "score", "id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_dee44922aee69b65dd11fe717a" ON "findings" ("status", "severity") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_86a74bc4894700956b5b002c54" ON "findings" ("vuln_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_9f86a559942f267dc67dc9a41f" ON "findings" ("first_seen_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_dfcc90fda71cf0a063d29d2ca7" ON "findings" ("fixed_at") `,
    );
    await queryRunner.query(`DROP INDEX "IDX_ad38416aff329708cb6374babf"`);
    await queryRunner.query(`DROP TABLE "finding_sources"`);
    await queryRunner.query(`DROP INDEX "IDX_f6ab374a86af89aba15ae9804f"`);
    await queryRunner.query(`DROP INDEX "IDX_8b435ee48d42fb9c5d8e38c7e0"`);
    await queryRunner.query(`DROP TABLE "finding_periods"`);
    await queryRunner.query(`DROP INDEX "IDX_42b29876c1a7618416ddd2d7f3"`);
    await queryRunner.query(`DROP INDEX "IDX_7ea682a339a10126bb2b2c8dc0"`);
    await queryRunner.query(`DROP INDEX "IDX_dee44922aee69b65dd11fe717a"`);
    await queryRunner.query(`DROP INDEX "IDX_86a74bc4894700956b5b002c54"`);
    await queryRunner.query(`DROP INDEX "IDX_9f86a559942f267dc67dc9a41f"`);
    await queryRunner.query(`DROP INDEX "IDX_dfcc90fda71cf0a063d29d2ca7"`);
    await queryRunner.query(`DROP TABLE "findings"`);
  }
}
