import { MigrationInterface, QueryRunner } from 'typeorm';

// The columns a change set takes over from the records.
const ORIGIN_LIST = [
  'actor_user_id',
  'actor_email',
  'actor_api_key_id',
  'actor_api_key_prefix',
  'request_id',
  'run_id',
]
  .map((column) => `"${column}"`)
  .join(', ');

export class ChangeSets1795601152203 implements MigrationInterface {
  name = 'ChangeSets1795601152203';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_53242a68e58982d889db506dec"`);
    await queryRunner.query(`DROP INDEX "IDX_58001a63f68ca272600335abfc"`);
    await queryRunner.query(
      `CREATE TABLE "change_sets" ("id" SERIAL NOT NULL, "actor_user_id" character varying(36) NOT NULL, "actor_email" character varying(255) NOT NULL, "actor_api_key_id" character varying(36), "actor_api_key_prefix" character varying(32), "request_id" character varying(128) NOT NULL, "run_id" character varying(36), CONSTRAINT "PK_58d9928d386f68ec41f87501e4f" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_0d956503085cd791d0aeebb1f7" ON "change_sets"  ("actor_user_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_106cadbdd77493938fb773d838" ON "change_sets"  ("run_id") `,
    );
    // Carry the stored records over: one change set for each origin they name.
    await queryRunner.query(
      `INSERT INTO "change_sets" (${ORIGIN_LIST}) SELECT ${ORIGIN_LIST} FROM "changes" GROUP BY ${ORIGIN_LIST} ORDER BY MIN("id")`,
    );
    await queryRunner.query(`ALTER TABLE "changes" ADD "change_set_id" integer`);
    await queryRunner.query(
      `UPDATE "changes" c SET "change_set_id" = s."id" FROM "change_sets" s WHERE (s.${ORIGIN_LIST.replaceAll(', ', ', s.')}) IS NOT DISTINCT FROM (c.${ORIGIN_LIST.replaceAll(', ', ', c.')})`,
    );
    await queryRunner.query(`ALTER TABLE "changes" ALTER COLUMN "change_set_id" SET NOT NULL`);
    await queryRunner.query(`ALTER TABLE "changes" DROP COLUMN "actor_user_id"`);
    await queryRunner.query(`ALTER TABLE "changes" DROP COLUMN "actor_email"`);
    await queryRunner.query(`ALTER TABLE "changes" DROP COLUMN "actor_api_key_id"`);
    await queryRunner.query(`ALTER TABLE "changes" DROP COLUMN "actor_api_key_prefix"`);
    await queryRunner.query(`ALTER TABLE "changes" DROP COLUMN "request_id"`);
    await queryRunner.query(`ALTER TABLE "changes" DROP COLUMN "run_id"`);
    await queryRunner.query(
      `CREATE INDEX "IDX_e4b6ddb6120f2151ac05352ff5" ON "changes"  ("change_set_id") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_e4b6ddb6120f2151ac05352ff5"`);
    await queryRunner.query(`ALTER TABLE "changes" ADD "run_id" character varying(36)`);
    await queryRunner.query(`ALTER TABLE "changes" ADD "request_id" character varying(128)`);
    await queryRunner.query(
      `ALTER TABLE "changes" ADD "actor_api_key_prefix" character varying(32)`,
    );
    await queryRunner.query(`ALTER TABLE "changes" ADD "actor_api_key_id" character varying(36)`);
    await queryRunner.query(`ALTER TABLE "changes" ADD "actor_email" character varying(255)`);
    await queryRunner.query(`ALTER TABLE "changes" ADD "actor_user_id" character varying(36)`);
    await queryRunner.query(
      `UPDATE "changes" c SET (${ORIGIN_LIST}) = (s.${ORIGIN_LIST.replaceAll(', ', ', s.')}) FROM "change_sets" s WHERE s."id" = c."change_set_id"`,
    );
    await queryRunner.query(`ALTER TABLE "changes" ALTER COLUMN "request_id" SET NOT NULL`);
    await queryRunner.query(`ALTER TABLE "changes" ALTER COLUMN "actor_email" SET NOT NULL`);
    await queryRunner.query(`ALTER TABLE "changes" ALTER COLUMN "actor_user_id" SET NOT NULL`);
    await queryRunner.query(`ALTER TABLE "changes" DROP COLUMN "change_set_id"`);
    await queryRunner.query(`DROP INDEX "IDX_106cadbdd77493938fb773d838"`);
    await queryRunner.query(`DROP INDEX "IDX_0d956503085cd791d0aeebb1f7"`);
    await queryRunner.query(`DROP TABLE "change_sets"`);
    await queryRunner.query(
      `CREATE INDEX "IDX_58001a63f68ca272600335abfc" ON "changes" USING btree ("run_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_53242a68e58982d889db506dec" ON "changes" USING btree ("actor_user_id") `,
    );
  }
}
