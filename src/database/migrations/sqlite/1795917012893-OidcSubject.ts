import { MigrationInterface, QueryRunner } from 'typeorm';

// Generated, then edited: the keys and the diagrams' owners kept across the users table's
// rebuild, both ways.

export class OidcSubject1795917012893 implements MigrationInterface {
  name = 'OidcSubject1795917012893';

  public async up(queryRunner: QueryRunner): Promise<void> {
    // api_keys refers to users ON DELETE CASCADE, and diagrams ON DELETE SET NULL: dropping the
    // old users table deletes every key and every diagram's owner, so both are put back.
    await queryRunner.query(`CREATE TEMPORARY TABLE "saved_api_keys" AS SELECT * FROM "api_keys"`);
    await queryRunner.query(
      `CREATE TEMPORARY TABLE "saved_owners" AS SELECT "id", "owner_id" FROM "diagrams" WHERE "owner_id" IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE TABLE "temporary_users" ("id" varchar(36) PRIMARY KEY NOT NULL, "email" varchar(320), "name" varchar(255) NOT NULL, "role" varchar(16) NOT NULL, "password_hash" varchar(255), "token_version" integer NOT NULL DEFAULT (0), "created_at" datetime NOT NULL DEFAULT (datetime('now')), "updated_at" datetime NOT NULL DEFAULT (datetime('now')), "kind" varchar(16) NOT NULL DEFAULT ('person'), "oidc_subject" varchar(255), CONSTRAINT "UQ_97672ac88f789774dd47f7c8be3" UNIQUE ("email"), CONSTRAINT "UQ_ca8d0a363bcc4db95cec052c352" UNIQUE ("oidc_subject"))`,
    );
    await queryRunner.query(
      `INSERT INTO "temporary_users"("id", "email", "name", "role", "password_hash", "token_version", "created_at", "updated_at", "kind") SELECT "id", "email", "name", "role", "password_hash", "token_version", "created_at", "updated_at", "kind" FROM "users"`,
    );
    await queryRunner.query(`DROP TABLE "users"`);
    await queryRunner.query(`ALTER TABLE "temporary_users" RENAME TO "users"`);
    // Emptied already when foreign keys are enforced (TypeORM turns them off for migrate(), but
    // not for migration:revert, whose transaction is open by then): both ways end alike.
    await queryRunner.query(`DELETE FROM "api_keys"`);
    await queryRunner.query(`INSERT INTO "api_keys" SELECT * FROM "saved_api_keys"`);
    await queryRunner.query(
      `UPDATE "diagrams" SET "owner_id" = (SELECT "owner_id" FROM "saved_owners" WHERE "saved_owners"."id" = "diagrams"."id") WHERE "id" IN (SELECT "id" FROM "saved_owners")`,
    );
    await queryRunner.query(`DROP TABLE "saved_api_keys"`);
    await queryRunner.query(`DROP TABLE "saved_owners"`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    // As in up(), and the new table renamed rather than the old one, whose name the other
    // tables' references would follow to a table about to go.
    await queryRunner.query(`CREATE TEMPORARY TABLE "saved_api_keys" AS SELECT * FROM "api_keys"`);
    await queryRunner.query(
      `CREATE TEMPORARY TABLE "saved_owners" AS SELECT "id", "owner_id" FROM "diagrams" WHERE "owner_id" IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE TABLE "temporary_users" ("id" varchar(36) PRIMARY KEY NOT NULL, "email" varchar(320), "name" varchar(255) NOT NULL, "role" varchar(16) NOT NULL, "password_hash" varchar(255), "token_version" integer NOT NULL DEFAULT (0), "created_at" datetime NOT NULL DEFAULT (datetime('now')), "updated_at" datetime NOT NULL DEFAULT (datetime('now')), "kind" varchar(16) NOT NULL DEFAULT ('person'), CONSTRAINT "UQ_97672ac88f789774dd47f7c8be3" UNIQUE ("email"))`,
    );
    await queryRunner.query(
      `INSERT INTO "temporary_users"("id", "email", "name", "role", "password_hash", "token_version", "created_at", "updated_at", "kind") SELECT "id", "email", "name", "role", "password_hash", "token_version", "created_at", "updated_at", "kind" FROM "users"`,
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
}
