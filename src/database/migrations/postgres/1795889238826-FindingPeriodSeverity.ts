import { MigrationInterface, QueryRunner } from 'typeorm';

// Generated, then edited: the new column is filled with each period's finding's severity before
// it becomes NOT NULL.
export class FindingPeriodSeverity1795889238826 implements MigrationInterface {
  name = 'FindingPeriodSeverity1795889238826';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "finding_periods" ADD "severity" character varying(8)`);
    await queryRunner.query(
      `UPDATE "finding_periods" p SET "severity" = f."severity" FROM "findings" f WHERE f."id" = p."finding_id"`,
    );
    await queryRunner.query(`ALTER TABLE "finding_periods" ALTER COLUMN "severity" SET NOT NULL`);
    await queryRunner.query(
      `CREATE INDEX "IDX_3ddedca6433f63cc3d112266d6" ON "findings"  ("accepted_until") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_3ddedca6433f63cc3d112266d6"`);
    await queryRunner.query(`ALTER TABLE "finding_periods" DROP COLUMN "severity"`);
  }
}
