import { MigrationInterface, QueryRunner } from 'typeorm';

export class WebhookDeliveryClaims1795926691502 implements MigrationInterface {
  name = 'WebhookDeliveryClaims1795926691502';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "IDX_df4af2a9c1c04aad5fd69a0cb3" ON "webhook_deliveries"  ("webhook_id", "status", "id") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_df4af2a9c1c04aad5fd69a0cb3"`);
  }
}
