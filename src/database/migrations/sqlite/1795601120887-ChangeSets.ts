import { MigrationInterface, QueryRunner } from 'typeorm';

// The columns a change set takes over from the records, matched with IS: two of them are nullable.
const ORIGIN_COLUMNS = [
  'actor_user_id',
  'actor_email',
  'actor_api_key_id',
  'actor_api_key_prefix',
  'request_id',
  'run_id',
];
const SAME_ORIGIN = ORIGIN_COLUMNS.map((column) => `s."${column}" IS c."${column}"`).join(' AND ');
const ORIGIN_LIST = ORIGIN_COLUMNS.map((column) => `"${column}"`).join(', ');

export class ChangeSets1795601120887 implements MigrationInterface {
  name = 'ChangeSets1795601120887';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "change_sets" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "actor_user_id" varchar(36) NOT NULL, "actor_email" varchar(255) NOT NULL, "actor_api_key_id" varchar(36), "actor_api_key_prefix" varchar(32), "request_id" varchar(128) NOT NULL, "run_id" varchar(36))`,
    );
    // Carry the stored records over: one change set for each origin they name.
    await queryRunner.query(
      `INSERT INTO "change_sets" (${ORIGIN_LIST}) SELECT ${ORIGIN_LIST} FROM "changes" GROUP BY ${ORIGIN_LIST} ORDER BY MIN("id")`,
    );
    await queryRunner.query(`DROP INDEX "IDX_58001a63f68ca272600335abfc"`);
    await queryRunner.query(`DROP INDEX "IDX_53242a68e58982d889db506dec"`);
    await queryRunner.query(`DROP INDEX "IDX_9b906354a8244fa359bc50dc10"`);
    await queryRunner.query(`DROP INDEX "IDX_35cd85cbf4697e029091bdc988"`);
    await queryRunner.query(
      `CREATE TABLE "temporary_changes" ("id" varchar(36) PRIMARY KEY NOT NULL, "time" datetime NOT NULL, "action" varchar(8) NOT NULL, "object_type" varchar(16) NOT NULL, "object_id" varchar(200) NOT NULL, "before" text, "after" text, "change_set_id" integer NOT NULL)`,
    );
    await queryRunner.query(
      `INSERT INTO "temporary_changes"("id", "time", "action", "object_type", "object_id", "before", "after", "change_set_id") SELECT c."id", c."time", c."action", c."object_type", c."object_id", c."before", c."after", s."id" FROM "changes" c JOIN "change_sets" s ON ${SAME_ORIGIN}`,
    );
    await queryRunner.query(`DROP TABLE "changes"`);
    await queryRunner.query(`ALTER TABLE "temporary_changes" RENAME TO "changes"`);
    await queryRunner.query(
      `CREATE INDEX "IDX_0d956503085cd791d0aeebb1f7" ON "change_sets" ("actor_user_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_106cadbdd77493938fb773d838" ON "change_sets" ("run_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_9b906354a8244fa359bc50dc10" ON "changes" ("object_type", "object_id", "time", "id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_35cd85cbf4697e029091bdc988" ON "changes" ("time", "id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_e4b6ddb6120f2151ac05352ff5" ON "changes" ("change_set_id") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_e4b6ddb6120f2151ac05352ff5"`);
    await queryRunner.query(`DROP INDEX "IDX_35cd85cbf4697e029091bdc988"`);
    await queryRunner.query(`DROP INDEX "IDX_9b906354a8244fa359bc50dc10"`);
    await queryRunner.query(`ALTER TABLE "changes" RENAME TO "temporary_changes"`);
    await queryRunner.query(
      `CREATE TABLE "changes" ("id" varchar(36) PRIMARY KEY NOT NULL, "time" datetime NOT NULL, "action" varchar(8) NOT NULL, "object_type" varchar(16) NOT NULL, "object_id" varchar(200) NOT NULL, "actor_user_id" varchar(36) NOT NULL, "actor_email" varchar(255) NOT NULL, "actor_api_key_id" varchar(36), "actor_api_key_prefix" varchar(32), "request_id" varchar(128) NOT NULL, "run_id" varchar(36), "before" text, "after" text)`,
    );
    await queryRunner.query(
      `INSERT INTO "changes"("id", "time", "action", "object_type", "object_id", ${ORIGIN_LIST}, "before", "after") SELECT c."id", c."time", c."action", c."object_type", c."object_id", ${ORIGIN_COLUMNS.map((column) => `s."${column}"`).join(', ')}, c."before", c."after" FROM "temporary_changes" c JOIN "change_sets" s ON s."id" = c."change_set_id"`,
    );
    await queryRunner.query(`DROP TABLE "temporary_changes"`);
    await queryRunner.query(`DROP INDEX "IDX_106cadbdd77493938fb773d838"`);
    await queryRunner.query(`DROP INDEX "IDX_0d956503085cd791d0aeebb1f7"`);
    await queryRunner.query(`DROP TABLE "change_sets"`);
    await queryRunner.query(
      `CREATE INDEX "IDX_35cd85cbf4697e029091bdc988" ON "changes" ("time", "id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_9b906354a8244fa359bc50dc10" ON "changes" ("object_type", "object_id", "time", "id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_53242a68e58982d889db506dec" ON "changes" ("actor_user_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_58001a63f68ca272600335abfc" ON "changes" ("run_id") `,
    );
  }
}
