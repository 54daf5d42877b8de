import { MigrationInterface, QueryRunner } from 'typeorm';

/** The columns the list's `search` reads (AssetsService), lowered as it compares them. */
const COLUMNS = ['name', 'ip', 'vendor', 'model', 'site', 'type', 'os_version'];

// Hand-written: TypeORM cannot declare an extension nor a GIN index on expressions (the entity
// names the index with synchronize: false, so that TypeORM leaves it alone). pg_trgm's GIN
// operator class answers LOWER(column) LIKE '%term%' by index. The extension is created in the
// public schema when missing (a database may install it beforehand, in any schema): created in
// the service's own schema, it would go with that schema. Its operator class is named with the
// schema it is in, which need not be on the search path.
export class AssetSearch1795527936776 implements MigrationInterface {
  name = 'AssetSearch1795527936776';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public`);
    const [{ schema }] = (await queryRunner.query(
      `SELECT extnamespace::regnamespace::text AS schema FROM pg_extension WHERE extname = 'pg_trgm'`,
    )) as { schema: string }[];
    const indexed = COLUMNS.map((column) => `LOWER("${column}") ${schema}.gin_trgm_ops`);
    await queryRunner.query(
      `CREATE INDEX "IDX_assets_search" ON "assets" USING gin (${indexed.join(', ')})`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_assets_search"`);
  }
}
