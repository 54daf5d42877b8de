import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { ENTITIES } from '../entities.js';
import { IngestionRun } from '../entities/ingestion-run.entity.js';
import { columnPaths, type TableColumn } from './column-table.js';
import { RUN_COLUMNS } from './ingestion-runs.table.js';

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

describe('the ingestion_runs table', () => {
  const dataSource = new DataSource({
    type: 'better-sqlite3',
    database: ':memory:',
    entities: ENTITIES,
  });
  const metadata = () => dataSource.getMetadata(IngestionRun);

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
    expect(Object.fromEntries(columnPaths(RUN_COLUMNS))).toEqual(mapped);
  });
});
