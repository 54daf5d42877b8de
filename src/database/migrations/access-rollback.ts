import type { QueryRunner } from 'typeorm';

/**
 * The first step of undoing the ServiceAccountsScopedKeys migration, the same on both
 * databases: what the schema before it cannot hold is removed, and nothing else.
 *
 * - Users without an e-mail or a password (service accounts, people from single sign-on) go,
 *   their keys with them and their diagrams without an owner (as deleting a user does).
 * - A key narrower than its user's role goes too: that schema has no scopes, sources or
 *   allowedCidrs, and would make an ingest-only CI key a full editor's usable from anywhere.
 *   Keys as wide as their user's role are kept, and get every scope back when it is redone.
 * - A change set or run of a user without an e-mail keeps its history, under the user's name.
 */
export async function dropWhatTheSchemaBeforeScopesCannotHold(runner: QueryRunner): Promise<void> {
  const unrepresentable = `SELECT "id" FROM "users" WHERE "email" IS NULL OR "password_hash" IS NULL`;
  const lacks = (scope: string) => `"scopes" NOT LIKE '%"${scope}"%'`;
  const roleOf = `(SELECT "role" FROM "users" WHERE "users"."id" = "api_keys"."user_id")`;
  await runner.query(
    `DELETE FROM "api_keys" WHERE "user_id" IN (${unrepresentable})
      OR COALESCE("sources", 'null') <> 'null' OR COALESCE("allowed_cidrs", 'null') <> 'null'
      OR ${lacks('read')}
      OR (${roleOf} IN ('editor', 'admin') AND (${lacks('write')} OR ${lacks('ingest')}))
      OR (${roleOf} = 'admin' AND ${lacks('admin')})`,
  );
  for (const table of ['change_sets', 'ingestion_runs']) {
    await runner.query(
      `UPDATE "${table}" SET "actor_email" = COALESCE(
        (SELECT "name" FROM "users" WHERE "users"."id" = "${table}"."actor_user_id"), "actor_user_id")
      WHERE "actor_email" IS NULL`,
    );
  }
  await runner.query(
    `UPDATE "diagrams" SET "owner_id" = NULL WHERE "owner_id" IN (${unrepresentable})`,
  );
  await runner.query(`DELETE FROM "users" WHERE "id" IN (${unrepresentable})`);
}
