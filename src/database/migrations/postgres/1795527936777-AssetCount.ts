import { MigrationInterface, QueryRunner } from 'typeorm';

// Hand-written: the unfiltered list's total read from a few rows instead of counted (a scan of
// the whole table at each request, growing with it), kept exact by statement triggers
// in every writing transaction. Each writing statement adds one row (its change plus the rows it
// folds in), and folds only rows no other transaction holds: writers never wait on one another,
// and a reader's snapshot sees every committed change once.
export class AssetCount1795527936777 implements MigrationInterface {
  name = 'AssetCount1795527936777';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "asset_count" ("id" bigserial PRIMARY KEY, "delta" bigint NOT NULL)`,
    );
    await queryRunner.query(`INSERT INTO "asset_count" ("delta") SELECT COUNT(*) FROM "assets"`);
    for (const [event, table, sign] of [
      ['insert', 'NEW TABLE AS changed', ''],
      ['delete', 'OLD TABLE AS changed', '-'],
    ]) {
      await queryRunner.query(
        `CREATE FUNCTION "asset_count_${event}"() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE change bigint;
        BEGIN
          SELECT ${sign}COUNT(*) INTO change FROM changed;
          IF change <> 0 THEN
            BEGIN
              WITH folded AS (
                DELETE FROM "asset_count"
                WHERE "id" IN (SELECT "id" FROM "asset_count" FOR UPDATE SKIP LOCKED)
                RETURNING "delta")
              INSERT INTO "asset_count" ("delta") SELECT COALESCE(SUM("delta"), 0) + change FROM folded;
            EXCEPTION WHEN serialization_failure THEN
              -- A stricter isolation than read committed, a row folded meanwhile: no fold.
              INSERT INTO "asset_count" ("delta") VALUES (change);
            END;
          END IF;
          RETURN NULL;
        END $$`,
      );
      await queryRunner.query(
        `CREATE TRIGGER "asset_count_${event}" AFTER ${event.toUpperCase()} ON "assets" REFERENCING ${table} FOR EACH STATEMENT EXECUTE FUNCTION "asset_count_${event}"()`,
      );
    }
    // TRUNCATE fires no delete trigger; it locks assets against every writer meanwhile.
    await queryRunner.query(
      `CREATE FUNCTION "asset_count_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN DELETE FROM "asset_count"; RETURN NULL; END $$`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "asset_count_truncate" AFTER TRUNCATE ON "assets" FOR EACH STATEMENT EXECUTE FUNCTION "asset_count_truncate"()`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const event of ['truncate', 'delete', 'insert']) {
      await queryRunner.query(`DROP TRIGGER "asset_count_${event}" ON "assets"`);
      await queryRunner.query(`DROP FUNCTION "asset_count_${event}"()`);
    }
    await queryRunner.query(`DROP TABLE "asset_count"`);
  }
}
