import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { ENTITIES } from '../entities.js';
import { ApiKey } from '../entities/api-key.entity.js';
import { API_KEY_COLUMNS } from './api-keys.table.js';

describe('the api_keys table', () => {
  const dataSource = new DataSource({
    type: 'better-sqlite3',
    database: ':memory:',
    entities: ENTITIES,
  });

  beforeAll(async () => {
    await dataSource.initialize();
  });

  afterAll(async () => {
    await dataSource.destroy();
  });

  it("names each property's column as the entity maps it", () => {
    const mapped = Object.fromEntries(
      dataSource
        .getMetadata(ApiKey)
        .columns.map((column) => [column.propertyName, column.databaseName]),
    );
    const listed = Object.fromEntries(
      Object.entries(API_KEY_COLUMNS).map(([property, column]) => [property, column.name]),
    );
    expect(listed).toEqual(mapped);
  });
});
