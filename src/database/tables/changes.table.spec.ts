import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { ENTITIES } from '../entities.js';
import { Change } from '../entities/change.entity.js';
import { columnPaths, type TableColumn } from './column-table.js';
import { CHANGE_COLUMNS, CHANGE_INSERT_COLUMNS } from './changes.table.js';

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

describe('the changes table', () => {
  const dataSource = new DataSource({
    type: 'better-sqlite3',
    database: ':memory:',
    entities: ENTITIES,
  });
  const metadata = () => dataSource.getMetadata(Change);

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
    expect(Object.fromEntries(columnPaths(CHANGE_COLUMNS))).toEqual(mapped);
  });
  it("inserts every column once, in the entity's order", () => {
    expect(CHANGE_INSERT_COLUMNS.map((column) => column.name)).toEqual(
      metadata().columns.map((column) => column.databaseName),
    );
  });
});
