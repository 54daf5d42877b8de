import { MigrationInterface, QueryRunner } from 'typeorm';
import { createSqliteSearchIndex, dropSqliteSearchIndex } from '../asset-search-sql.js';

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

// Hand-written: the search's trigram table made again over the identity lists too.
export class AssetIdentitySearch1795924778052 implements MigrationInterface {
  name = 'AssetIdentitySearch1795924778052';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await dropSqliteSearchIndex(queryRunner);
    await createSqliteSearchIndex(queryRunner, COLUMNS);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await dropSqliteSearchIndex(queryRunner);
    await createSqliteSearchIndex(queryRunner, BEFORE);
  }
}
