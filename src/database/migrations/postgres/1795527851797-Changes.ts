import { MigrationInterface, QueryRunner } from 'typeorm';

export class Changes1795527851797 implements MigrationInterface {
  name = 'Changes1795527851797';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "changes" ("id" character varying(36) NOT NULL, "time" TIMESTAMP WITH TIME ZONE NOT NULL, "action" character varying(8) NOT NULL, "object_type" character varying(16) NOT NULL, "object_id" character varying(200) NOT NULL, "actor_user_id" character varying(36) NOT NULL, "actor_email" character varying(255) NOT NULL, "actor_api_key_id" character varying(36), "actor_api_key_prefix" character varying(32), "request_id" character varying(128) NOT NULL, "run_id" character varying(36), "before" text, "after" text, CONSTRAINT "PK_ee28fdddd557d6e0d4949a9741f" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_53242a68e58982d889db506dec" ON "changes"  ("actor_user_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_58001a63f68ca272600335abfc" ON "changes"  ("run_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_35cd85cbf4697e029091bdc988" ON "changes"  ("time", "id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_9b906354a8244fa359bc50dc10" ON "changes"  ("object_type", "object_id", "time", "id") `,
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
