import { MigrationInterface, QueryRunner } from 'typeorm';
import {
  FINDING_FACTS,
  FINDING_FACT_COLUMNS,
  PERIOD_FACTS,
  PERIOD_FACT_COLUMNS,
  type CountedFact,
} from '../finding-count-facts.js';

// Hand-written: the findings' summary and trend read from a few rows instead of counting a
// million findings at each request, kept exact by triggers in every writing transaction (SQLite
// has one writer at a time, so the rows are no point of contention); and the index of the open
// findings by their opening, an expression TypeORM cannot declare, and the list's by status,
// severity and score descending (the entity names both with synchronize: false).

/** A timestamp's UTC day, as SQLite stores them (`YYYY-MM-DD HH:MM:SS.SSS`, in UTC). */
const day = (column: string) => `substr(${column}, 1, 10)`;

/** The upserts that add `sign` for each fact of `row` (NEW or OLD) that holds. */
function upserts(facts: readonly CountedFact[], row: string, sign: 1 | -1): string {
  return facts
    .map((fact) => {
      const dayOf = fact.day(row);
      return `INSERT INTO "finding_counts" ("kind", "status", "severity", "day", "total")
        SELECT '${fact.kind}', ${fact.status(row)}, ${row}."severity", ${dayOf === null ? "''" : day(dayOf)}, ${sign}
        WHERE ${fact.when(row)}
        ON CONFLICT ("kind", "status", "severity", "day") DO UPDATE SET "total" = "total" + excluded."total";`;
    })
    .join('\n');
}

/** The first counts, of the rows `table` holds (as `t`). */
function counted(facts: readonly CountedFact[], table: string): string[] {
  return facts.map((fact) => {
    const dayOf = fact.day('t');
    const dayExpression = dayOf === null ? "''" : day(dayOf);
    const grouped = [fact.status('t'), 't."severity"', dayExpression].filter((by) => by !== "''");
    return `INSERT INTO "finding_counts" ("kind", "status", "severity", "day", "total")
      SELECT '${fact.kind}', ${fact.status('t')}, t."severity", ${dayExpression}, COUNT(*) FROM "${table}" t
      WHERE ${fact.when('t')} GROUP BY ${grouped.join(', ')}
      ON CONFLICT ("kind", "status", "severity", "day") DO UPDATE SET "total" = "total" + excluded."total"`;
  });
}

export class FindingCounts1795889233429 implements MigrationInterface {
  name = 'FindingCounts1795889233429';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "finding_counts" ("kind" varchar(8) NOT NULL, "status" varchar(16) NOT NULL, "severity" varchar(8) NOT NULL, "day" varchar(10) NOT NULL, "total" integer NOT NULL, PRIMARY KEY ("kind", "status", "severity", "day"))`,
    );
    for (const sql of [
      ...counted(FINDING_FACTS, 'findings'),
      ...counted(PERIOD_FACTS, 'finding_periods'),
    ])
      await queryRunner.query(sql);
    for (const [table, facts, factColumns] of [
      ['findings', FINDING_FACTS, FINDING_FACT_COLUMNS],
      ['finding_periods', PERIOD_FACTS, PERIOD_FACT_COLUMNS],
    ] as const) {
      const columns = factColumns.map((column) => `"${column}"`).join(', ');
      const changed = factColumns
        .map((column) => `OLD."${column}" IS NOT NEW."${column}"`)
        .join(' OR ');
      await queryRunner.query(
        `CREATE TRIGGER "${table}_count_insert" AFTER INSERT ON "${table}" BEGIN ${upserts(facts, 'NEW', 1)} END`,
      );
      await queryRunner.query(
        `CREATE TRIGGER "${table}_count_delete" AFTER DELETE ON "${table}" BEGIN ${upserts(facts, 'OLD', -1)} END`,
      );
      await queryRunner.query(
        `CREATE TRIGGER "${table}_count_update" AFTER UPDATE OF ${columns} ON "${table}" WHEN ${changed} BEGIN ${upserts(facts, 'OLD', -1)} ${upserts(facts, 'NEW', 1)} END`,
      );
    }
    // A period counts under its finding's severity, which a new score can change.
    await queryRunner.query(
      `CREATE TRIGGER "findings_period_severity" AFTER UPDATE OF "severity" ON "findings" WHEN OLD."severity" <> NEW."severity" BEGIN UPDATE "finding_periods" SET "severity" = NEW."severity" WHERE "finding_id" = NEW."id"; END`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_findings_due" ON "findings" ("status", "severity", COALESCE("reopened_at", "first_seen_at"))`,
    );
    await queryRunner.query(`DROP INDEX "IDX_7ea682a339a10126bb2b2c8dc0"`);
    await queryRunner.query(`DROP INDEX "IDX_dee44922aee69b65dd11fe717a"`);
    await queryRunner.query(
      `CREATE INDEX "IDX_findings_status_score" ON "findings" ("status", "severity", "score" DESC, "id")`,
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
    await queryRunner.query(`DROP TRIGGER "findings_period_severity"`);
    for (const table of ['finding_periods', 'findings'])
      for (const event of ['update', 'delete', 'insert'])
        await queryRunner.query(`DROP TRIGGER "${table}_count_${event}"`);
    await queryRunner.query(`DROP TABLE "finding_counts"`);
  }
}
