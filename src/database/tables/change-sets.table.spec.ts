import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { ENTITIES } from '../entities.js';
import { ChangeSet } from '../entities/change-set.entity.js';
import { columnPaths, type TableColumn } from './column-table.js';
import { CHANGE_SET_COLUMNS, CHANGE_SET_INSERT_COLUMNS } from './change-sets.table.js';

/** The type a statement binds for each of TypeORM's column types. */
const BOUND_AS: Record<string, TableColumn['type']> = {
  varchar: 'text',
  text: 'text',
  integer: 'integer',
  Number: 'integer',
  boolean: 'boolean',
  Date: 'timestamptz',
  'simple-json': 'json',
};

describe('the change_sets table', () => {
  const dataSource = new DataSource({
    type: 'better-sqlite3',
    database: ':memory:',
    entities: ENTITIES,
  });
  const metadata = () => dataSource.getMetadata(ChangeSet);

  beforeAll(async () => {
    await dataSource.initialize();
  });

  afterAll(async () => {
    await dataSource.destroy();
  });

  it("names each property's column as the entity maps it, with the type it binds", () => {
    const mapped = Object.fromEntries(
      metadata().columns.map((column) => [
        column.propertyPath,
        {
          name: column.databaseName,
          type: BOUND_AS[typeof column.type === 'function' ? column.type.name : column.type],
        },
      ]),
    );
    expect(Object.fromEntries(columnPaths(CHANGE_SET_COLUMNS))).toEqual(mapped);
  });
  it("inserts every column but the generated id, the actor's in the table's order", () => {
    expect(CHANGE_SET_INSERT_COLUMNS.map((column) => column.name)).toEqual([
      'actor_user_id',
      'actor_email',
      'actor_api_key_id',
      'actor_api_key_prefix',
      'request_id',
      'run_id',
    ]);
  });
});
