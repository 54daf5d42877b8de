import { MigrationInterface, QueryRunner } from 'typeorm';
import { createPostgresSearchIndex } from '../asset-search-sql.js';

/** The columns the list's `search` reads (AssetsRepository), the identity lists now too. */
const COLUMNS = [
  'name',
  'ip',
  'vendor',
  'model',
  'site',
  'type',
  'os_version',
  'addresses',
  'mac_addresses',
  'hostnames',
];
const BEFORE = ['name', 'ip', 'vendor', 'model', 'site', 'type', 'os_version'];

// Hand-written: the search's trigram index made again over the identity lists too.
export class AssetIdentitySearch1795924786056 implements MigrationInterface {
  name = 'AssetIdentitySearch1795924786056';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_assets_search"`);
    await createPostgresSearchIndex(queryRunner, COLUMNS);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_assets_search"`);
    await createPostgresSearchIndex(queryRunner, BEFORE);
  }
}
