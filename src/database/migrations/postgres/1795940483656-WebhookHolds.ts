import { MigrationInterface, QueryRunner } from 'typeorm';

export class WebhookHolds1795940483656 implements MigrationInterface {
  name = 'WebhookHolds1795940483656';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_948c45a179697342959ae172c1"`);
    await queryRunner.query(`ALTER TABLE "webhook_deliveries" DROP COLUMN "claimed_until"`);
    await queryRunner.query(`ALTER TABLE "webhooks" ADD "claimed_until" TIMESTAMP WITH TIME ZONE`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhooks" DROP COLUMN "claimed_until"`);
    await queryRunner.query(
      `ALTER TABLE "webhook_deliveries" ADD "claimed_until" TIMESTAMP WITH TIME ZONE`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_948c45a179697342959ae172c1" ON "webhook_deliveries" ("status", "id") `,
    );
  }
}
