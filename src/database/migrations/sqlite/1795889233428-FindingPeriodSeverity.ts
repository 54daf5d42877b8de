import { MigrationInterface, QueryRunner } from 'typeorm';

// Generated, then edited: the rebuilt table's new column is filled with each period's finding's
// severity.
export class FindingPeriodSeverity1795889233428 implements MigrationInterface {
  name = 'FindingPeriodSeverity1795889233428';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_f6ab374a86af89aba15ae9804f"`);
    await queryRunner.query(`DROP INDEX "IDX_8b435ee48d42fb9c5d8e38c7e0"`);
    await queryRunner.query(
      `CREATE TABLE "temporary_finding_periods" ("finding_id" varchar(36) NOT NULL, "opened_at" datetime NOT NULL, "closed_at" datetime, "severity" varchar(8) NOT NULL, CONSTRAINT "FK_09750b8daeadc7c346361b27c57" FOREIGN KEY ("finding_id") REFERENCES "findings" ("id") ON DELETE CASCADE ON UPDATE NO ACTION, PRIMARY KEY ("finding_id", "opened_at"))`,
    );
    await queryRunner.query(
      `INSERT INTO "temporary_finding_periods"("finding_id", "opened_at", "closed_at", "severity") SELECT p."finding_id", p."opened_at", p."closed_at", f."severity" FROM "finding_periods" p JOIN "findings" f ON f."id" = p."finding_id"`,
    );
    await queryRunner.query(`DROP TABLE "finding_periods"`);
    await queryRunner.query(`ALTER TABLE "temporary_finding_periods" RENAME TO "finding_periods"`);
    await queryRunner.query(
      `CREATE INDEX "IDX_f6ab374a86af89aba15ae9804f" ON "finding_periods" ("opened_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_8b435ee48d42fb9c5d8e38c7e0" ON "finding_periods" ("closed_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_3ddedca6433f63cc3d112266d6" ON "findings" ("accepted_until") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_3ddedca6433f63cc3d112266d6"`);
    await queryRunner.query(`DROP INDEX "IDX_8b435ee48d42fb9c5d8e38c7e0"`);
    await queryRunner.query(`DROP INDEX "IDX_f6ab374a86af89aba15ae9804f"`);
    await queryRunner.query(`ALTER TABLE "finding_periods" RENAME TO "temporary_finding_periods"`);
    await queryRunner.query(
      `CREATE TABLE "finding_periods" ("finding_id" varchar(36) NOT NULL, "opened_at" datetime NOT NULL, "closed_at" datetime, CONSTRAINT "FK_09750b8daeadc7c346361b27c57" FOREIGN KEY ("finding_id") REFERENCES "findings" ("id") ON DELETE CASCADE ON UPDATE NO ACTION, PRIMARY KEY ("finding_id", "opened_at"))`,
    );
    await queryRunner.query(
      `INSERT INTO "finding_periods"("finding_id", "opened_at", "closed_at") SELECT "finding_id", "opened_at", "closed_at" FROM "temporary_finding_periods"`,
    );
    await queryRunner.query(`DROP TABLE "temporary_finding_periods"`);
    await queryRunner.query(
      `CREATE INDEX "IDX_8b435ee48d42fb9c5d8e38c7e0" ON "finding_periods" ("closed_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_f6ab374a86af89aba15ae9804f" ON "finding_periods" ("opened_at") `,
    );
  }
}
