import { MigrationInterface, QueryRunner } from 'typeorm';

// Generated, then edited: the keys and the diagrams' owners kept across the users table's
// rebuild, both ways.

const COLUMNS = `"id", "email", "name", "role", "password_hash", "token_version", "created_at", "updated_at", "kind"`;
const COMMON = `"id" varchar(36) PRIMARY KEY NOT NULL, "email" varchar(320), "name" varchar(255) NOT NULL, "role" varchar(16) NOT NULL, "password_hash" varchar(255), "token_version" integer NOT NULL DEFAULT (0), "created_at" datetime NOT NULL DEFAULT (datetime('now')), "updated_at" datetime NOT NULL DEFAULT (datetime('now')), "kind" varchar(16) NOT NULL DEFAULT ('person')`;

/**
 * The users table made again with `definition`, the rows' other columns copied. api_keys refers
 * to users ON DELETE CASCADE, and diagrams ON DELETE SET NULL: dropping the old table deletes
 * every key and every diagram's owner when foreign keys are enforced (TypeORM turns them off for
 * migrate(), but not for migration:revert, whose transaction is open by then), so both are
 * copied aside and put back either way. The new table is renamed, not the old one, whose name
 * the other tables' references would follow to a table about to go.
 */
async function rebuildUsers(queryRunner: QueryRunner, definition: string): Promise<void> {
  await queryRunner.query(`CREATE TEMPORARY TABLE "saved_api_keys" AS SELECT * FROM "api_keys"`);
  await queryRunner.query(
    `CREATE TEMPORARY TABLE "saved_owners" AS SELECT "id", "owner_id" FROM "diagrams" WHERE "owner_id" IS NOT NULL`,
  );
  await queryRunner.query(`CREATE TABLE "temporary_users" (${definition})`);
  await queryRunner.query(
    `INSERT INTO "temporary_users"(${COLUMNS}) SELECT ${COLUMNS} FROM "users"`,
  );
  await queryRunner.query(`DROP TABLE "users"`);
  await queryRunner.query(`ALTER TABLE "temporary_users" RENAME TO "users"`);
  await queryRunner.query(`DELETE FROM "api_keys"`);
  await queryRunner.query(`INSERT INTO "api_keys" SELECT * FROM "saved_api_keys"`);
  await queryRunner.query(
    `UPDATE "diagrams" SET "owner_id" = (SELECT "owner_id" FROM "saved_owners" WHERE "saved_owners"."id" = "diagrams"."id") WHERE "id" IN (SELECT "id" FROM "saved_owners")`,
  );
  await queryRunner.query(`DROP TABLE "saved_api_keys"`);
  await queryRunner.query(`DROP TABLE "saved_owners"`);
}

export class OidcSubject1795917012893 implements MigrationInterface {
  name = 'OidcSubject1795917012893';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await rebuildUsers(
      queryRunner,
      `${COMMON}, "oidc_subject" varchar(255), CONSTRAINT "UQ_97672ac88f789774dd47f7c8be3" UNIQUE ("email"), CONSTRAINT "UQ_ca8d0a363bcc4db95cec052c352" UNIQUE ("oidc_subject")`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await rebuildUsers(
      queryRunner,
      `${COMMON}, CONSTRAINT "UQ_97672ac88f789774dd47f7c8be3" UNIQUE ("email")`,
    );
  }
}
