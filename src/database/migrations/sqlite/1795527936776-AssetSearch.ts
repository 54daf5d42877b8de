import { MigrationInterface, QueryRunner } from 'typeorm';
import { createSqliteSearchIndex, dropSqliteSearchIndex } from '../asset-search-sql.js';

/** The columns the list's `search` reads (AssetsService), indexed together by trigram. */
const COLUMNS = ['name', 'ip', 'vendor', 'model', 'site', 'type', 'os_version'];

// Hand-written: TypeORM knows neither virtual tables nor triggers (asset-search-sql.ts says how
// the index is made). A later migration that rebuilds the assets table must create the triggers
// again and refill the table.
export class AssetSearch1795527936776 implements MigrationInterface {
  name = 'AssetSearch1795527936776';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await createSqliteSearchIndex(queryRunner, COLUMNS);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await dropSqliteSearchIndex(queryRunner);
  }
}
