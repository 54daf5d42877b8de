import { MigrationInterface, QueryRunner } from 'typeorm';

// Hand-written: the assets, riskiest first, in the list's own order for sort=-risk_score
// (missing scores last, then id: the dashboard's riskiest assets), which TypeORM cannot declare.
export class AssetsRiskOrder1795982513778 implements MigrationInterface {
  name = 'AssetsRiskOrder1795982513778';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "IDX_assets_risk" ON "assets" ("risk_score" DESC NULLS LAST, "id")`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_assets_risk"`);
  }
}
