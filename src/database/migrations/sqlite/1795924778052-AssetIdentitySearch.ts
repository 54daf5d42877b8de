import { MigrationInterface, QueryRunner } from 'typeorm';
import {
  createSqliteSearchIndex,
  dropSqliteSearchIndex,
  SEARCHED_BEFORE_IDENTITY,
  SEARCHED_WITH_IDENTITY,
} from '../asset-search-sql.js';

// Hand-written: the search's trigram table made again over the identity lists too.
export class AssetIdentitySearch1795924778052 implements MigrationInterface {
  name = 'AssetIdentitySearch1795924778052';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await dropSqliteSearchIndex(queryRunner);
    await createSqliteSearchIndex(queryRunner, SEARCHED_WITH_IDENTITY);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await dropSqliteSearchIndex(queryRunner);
    await createSqliteSearchIndex(queryRunner, SEARCHED_BEFORE_IDENTITY);
  }
}
