import { MigrationInterface, QueryRunner } from 'typeorm';

// Hand-written: the fixed findings, last fixed first (the list's status=fixed&sort=-fixedAt,
// the sample the dashboard's mean time to fix reads), in the list's own order, which TypeORM
// cannot declare. It also counts those fixed since a time, which the plain index on fixed_at
// it replaces did.
export class FindingsFixedOrder1795960190892 implements MigrationInterface {
  name = 'FindingsFixedOrder1795960190892';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "IDX_findings_fixed" ON "findings" ("status", "fixed_at" DESC NULLS LAST, "id")`,
    );
    await queryRunner.query(`DROP INDEX "IDX_dfcc90fda71cf0a063d29d2ca7"`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "IDX_dfcc90fda71cf0a063d29d2ca7" ON "findings" ("fixed_at")`,
    );
    await queryRunner.query(`DROP INDEX "IDX_findings_fixed"`);
  }
}
