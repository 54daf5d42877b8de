import { MigrationInterface, QueryRunner } from 'typeorm';

export class ChangeIdOrder1795604843150 implements MigrationInterface {
  name = 'ChangeIdOrder1795604843150';

  // Record ids carry their time (src/database/history/record-ids.ts): the primary key orders them.
  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_35cd85cbf4697e029091bdc988"`);
    await queryRunner.query(`DROP INDEX "IDX_9b906354a8244fa359bc50dc10"`);
    await queryRunner.query(
      `CREATE INDEX "IDX_8b9cd4ccec614ca162fb637280" ON "changes" ("object_type", "object_id", "id") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_8b9cd4ccec614ca162fb637280"`);
    await queryRunner.query(
      `CREATE INDEX "IDX_9b906354a8244fa359bc50dc10" ON "changes" ("object_type", "object_id", "time", "id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_35cd85cbf4697e029091bdc988" ON "changes" ("time", "id") `,
    );
  }
}
