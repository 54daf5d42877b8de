import { MigrationInterface, QueryRunner } from 'typeorm';
import {
  createPostgresSearchIndex,
  SEARCHED_BEFORE_IDENTITY,
  SEARCHED_WITH_IDENTITY,
} from '../asset-search-sql.js';

// Hand-written: the search's trigram index made again over the identity lists too.
export class AssetIdentitySearch1795924786056 implements MigrationInterface {
  name = 'AssetIdentitySearch1795924786056';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_assets_search"`);
    await createPostgresSearchIndex(queryRunner, SEARCHED_WITH_IDENTITY);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_assets_search"`);
    await createPostgresSearchIndex(queryRunner, SEARCHED_BEFORE_IDENTITY);
  }
}
