import { MigrationInterface, QueryRunner } from 'typeorm';
import {
  FINDING_FACTS,
  FINDING_FACT_COLUMNS,
  PERIOD_FACTS,
  PERIOD_FACT_COLUMNS,
  type CountedFact,
} from '../finding-count-facts.js';

// Hand-written: the findings' summary and trend read from a few rows instead of counting a
// million findings at each request, kept exact by statement triggers in every writing
// transaction, as the assets' count is (migration AssetCount): a key's count is the sum of its
// rows' totals. Each writing statement adds its changes by key, folding in the rows of those
// keys that no other transaction holds, so writers never wait on one another and a reader's
// snapshot sees every committed change once. And two indexes TypeORM cannot declare (the entity
// names them with synchronize: false): the open findings by their opening, an expression; the
// list's by status, severity and score descending with the scoreless last.

/** A timestamp's UTC day, `YYYY-MM-DD`. */
const day = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD')`;

/**
 * The VALUES rows (kind or NULL, status, severity, day, delta) of `row`'s facts, each adding
 * `sign` (an SQL expression: 1, -1, or a column).
 */
function factRows(facts: readonly CountedFact[], row: string, sign: string): string[] {
  return facts.map((fact) => {
    const dayOf = fact.day(row);
    return `(CASE WHEN ${fact.when(row)} THEN '${fact.kind}' END, ${fact.status(row)}::text, ${row}."severity"::text, ${dayOf === null ? "''" : day(dayOf)}, ${sign})`;
  });
}

/**
 * The changes by key of the rows `from` (an SQL FROM clause) gives where `where` holds, their
 * facts as `rows`.
 */
function deltas(from: string, rows: string[], where = 'true'): string {
  return `SELECT k."kind", k."status", k."severity", k."day", SUM(k."delta")::bigint AS "total"
    FROM ${from} CROSS JOIN LATERAL (VALUES ${rows.join(', ')}) AS k("kind", "status", "severity", "day", "delta")
    WHERE k."kind" IS NOT NULL AND ${where}
    GROUP BY k."kind", k."status", k."severity", k."day" HAVING SUM(k."delta") <> 0`;
}

/** A trigger function's body: adds `changes` (a query of keys and deltas), folding as it can. */
function addChanges(changes: string): string {
  const keys = '"kind", "status", "severity", "day"';
  return `BEGIN
    BEGIN
      WITH changes AS (${changes}),
      folded AS (
        DELETE FROM "finding_counts" WHERE "id" IN (
          SELECT c."id" FROM "finding_counts" c JOIN changes USING (${keys})
          FOR UPDATE OF c SKIP LOCKED)
        RETURNING ${keys}, "total")
      INSERT INTO "finding_counts" (${keys}, "total")
      SELECT ${keys}, SUM("total") FROM (SELECT * FROM changes UNION ALL SELECT * FROM folded) a
      GROUP BY ${keys} HAVING SUM("total") <> 0;
    EXCEPTION WHEN serialization_failure THEN
      -- A stricter isolation than read committed, a row folded meanwhile: no fold.
      INSERT INTO "finding_counts" (${keys}, "total") ${changes};
    END;
    RETURN NULL;
  END`;
}

/** The first counts, of the rows `table` holds. */
function counted(facts: readonly CountedFact[], table: string): string {
  return `INSERT INTO "finding_counts" ("kind", "status", "severity", "day", "total")
    ${deltas(`"${table}" t`, factRows(facts, 't', '1'))}`;
}

const TABLES = [
  ['findings', FINDING_FACTS, FINDING_FACT_COLUMNS],
  ['finding_periods', PERIOD_FACTS, PERIOD_FACT_COLUMNS],
] as const;

export class FindingCounts1795889238827 implements MigrationInterface {
  name = 'FindingCounts1795889238827';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "finding_counts" ("id" bigserial PRIMARY KEY, "kind" character varying(8) NOT NULL, "status" character varying(16) NOT NULL, "severity" character varying(8) NOT NULL, "day" character varying(10) NOT NULL, "total" bigint NOT NULL)`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_finding_counts_key" ON "finding_counts" ("kind", "status", "severity", "day")`,
    );
    for (const [table, facts] of TABLES) await queryRunner.query(counted(facts, table));
    for (const [table, facts, columns] of TABLES) {
      const update =
        table === 'findings'
          ? // Paired by id, only the rows whose facts can have changed: not the many sightings
            // that move last_seen_at alone.
            deltas(
              'o JOIN n USING ("id")',
              [...factRows(facts, 'o', '-1'), ...factRows(facts, 'n', '1')],
              `(${columns.map((column) => `o."${column}"`).join(', ')}) IS DISTINCT FROM (${columns.map((column) => `n."${column}"`).join(', ')})`,
            )
          : // A period has no key of its own that an update cannot change: old rows less, new more.
            deltas(
              '(SELECT *, -1 AS "sign" FROM o UNION ALL SELECT *, 1 FROM n) t',
              factRows(facts, 't', 't."sign"'),
            );
      for (const [event, referencing, changes] of [
        ['insert', 'NEW TABLE AS n', deltas('n', factRows(facts, 'n', '1'))],
        ['delete', 'OLD TABLE AS o', deltas('o', factRows(facts, 'o', '-1'))],
        ['update', 'OLD TABLE AS o NEW TABLE AS n', update],
      ] as const) {
        await queryRunner.query(
          `CREATE FUNCTION "${table}_count_${event}"() RETURNS trigger LANGUAGE plpgsql AS $$ ${addChanges(changes)} $$`,
        );
        await queryRunner.query(
          `CREATE TRIGGER "${table}_count_${event}" AFTER ${event.toUpperCase()} ON "${table}" REFERENCING ${referencing} FOR EACH STATEMENT EXECUTE FUNCTION "${table}_count_${event}"()`,
        );
      }
      // TRUNCATE fires no delete trigger; it locks the table against every writer meanwhile.
      const kinds = facts.map((fact) => `'${fact.kind}'`).join(', ');
      await queryRunner.query(
        `CREATE FUNCTION "${table}_count_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN DELETE FROM "finding_counts" WHERE "kind" IN (${kinds}); RETURN NULL; END $$`,
      );
      await queryRunner.query(
        `CREATE TRIGGER "${table}_count_truncate" AFTER TRUNCATE ON "${table}" FOR EACH STATEMENT EXECUTE FUNCTION "${table}_count_truncate"()`,
      );
    }
    // A period counts under its finding's severity, which a new score can change: a row trigger,
    // so that the many updates that change no severity (sightings) cost nothing.
    await queryRunner.query(
      `CREATE FUNCTION "findings_period_severity"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE "finding_periods" SET "severity" = NEW."severity" WHERE "finding_id" = NEW."id";
        RETURN NULL;
      END $$`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "findings_period_severity" AFTER UPDATE OF "severity" ON "findings" FOR EACH ROW WHEN (OLD."severity" IS DISTINCT FROM NEW."severity") EXECUTE FUNCTION "findings_period_severity"()`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_findings_due" ON "findings" ("status", "severity", COALESCE("reopened_at", "first_seen_at"))`,
    );
    await queryRunner.query(`DROP INDEX "IDX_7ea682a339a10126bb2b2c8dc0"`);
    await queryRunner.query(`DROP INDEX "IDX_dee44922aee69b65dd11fe717a"`);
    await queryRunner.query(
      `CREATE INDEX "IDX_findings_status_score" ON "findings" ("status", "severity", "score" DESC NULLS LAST, "id")`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_findings_status_score"`);
    await queryRunner.query(
      `CREATE INDEX "IDX_dee44922aee69b65dd11fe717a" ON "findings" ("status", "severity")`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_7ea682a339a10126bb2b2c8dc0" ON "findings" ("severity", "score", "id")`,
    );
    await queryRunner.query(`DROP INDEX "IDX_findings_due"`);
    await queryRunner.query(`DROP TRIGGER "findings_period_severity" ON "findings"`);
    await queryRunner.query(`DROP FUNCTION "findings_period_severity"()`);
    for (const [table] of TABLES)
      for (const event of ['truncate', 'update', 'delete', 'insert']) {
        await queryRunner.query(`DROP TRIGGER "${table}_count_${event}" ON "${table}"`);
        await queryRunner.query(`DROP FUNCTION "${table}_count_${event}"()`);
      }
    await queryRunner.query(`DROP TABLE "finding_counts"`);
  }
}
