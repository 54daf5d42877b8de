import { MigrationInterface, QueryRunner } from 'typeorm';
import { createPostgresSearchIndex } from '../asset-search-sql.js';

/** The columns the list's `search` reads (AssetsService), lowered as it compares them. */
const COLUMNS = ['name', 'ip', 'vendor', 'model', 'site', 'type', 'os_version'];

// Hand-written: TypeORM cannot declare an extension nor a GIN index on expressions (the entity
// names the index with synchronize: false, so that TypeORM leaves it alone); asset-search-sql.ts
// says how the index is made.
export class AssetSearch1795527936776 implements MigrationInterface {
  name = 'AssetSearch1795527936776';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await createPostgresSearchIndex(queryRunner, COLUMNS);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_assets_search"`);
  }
}
