import { MigrationInterface, QueryRunner } from 'typeorm';

export class Changes1795527844427 implements MigrationInterface {
  name = 'Changes1795527844427';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "changes" ("id" varchar(36) PRIMARY KEY NOT NULL, "time" datetime NOT NULL, "action" varchar(8) NOT NULL, "object_type" varchar(16) NOT NULL, "object_id" varchar(200) NOT NULL, "actor_user_id" varchar(36) NOT NULL, "actor_email" varchar(255) NOT NULL, "actor_api_key_id" varchar(36), "actor_api_key_prefix" varchar(32), "request_id" varchar(128) NOT NULL, "run_id" varchar(36), "before" text, "after" text)`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_53242a68e58982d889db506dec" ON "changes" ("actor_user_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_58001a63f68ca272600335abfc" ON "changes" ("run_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_35cd85cbf4697e029091bdc988" ON "changes" ("time", "id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_9b906354a8244fa359bc50dc10" ON "changes" ("object_type", "object_id", "time", "id") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_9b906354a8244fa359bc50dc10"`);
    await queryRunner.query(`DROP INDEX "IDX_35cd85cbf4697e029091bdc988"`);
    await queryRunner.query(`DROP INDEX "IDX_58001a63f68ca272600335abfc"`);
    await queryRunner.query(`DROP INDEX "IDX_53242a68e58982d889db506dec"`);
    await queryRunner.query(`DROP TABLE "changes"`);
  }
}
