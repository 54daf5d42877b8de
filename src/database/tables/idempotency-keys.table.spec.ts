import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { ENTITIES } from '../entities.js';
import { IdempotencyKey } from '../entities/idempotency-key.entity.js';
import { columnPaths, type TableColumn } from './column-table.js';
import { IDEMPOTENCY_KEY_COLUMNS } from './idempotency-keys.table.js';

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

describe('the idempotency_keys table', () => {
  const dataSource = new DataSource({
    type: 'better-sqlite3',
    database: ':memory:',
    entities: ENTITIES,
  });
  const metadata = () => dataSource.getMetadata(IdempotencyKey);

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
    expect(Object.fromEntries(columnPaths(IDEMPOTENCY_KEY_COLUMNS))).toEqual(mapped);
  });
});
