import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { ENTITIES } from '../entities.js';
import { AssetSource } from '../entities/asset-source.entity.js';
import { ASSET_SOURCE_COLUMNS, ASSET_SOURCE_INSERT_COLUMNS } from './asset-sources.table.js';

describe('the asset_sources table', () => {
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
        .getMetadata(AssetSource)
        .columns.map((column) => [column.propertyName, column.databaseName]),
    );
    const listed = Object.fromEntries(
      Object.entries(ASSET_SOURCE_COLUMNS).map(([property, column]) => [property, column.name]),
    );
    expect(listed).toEqual(mapped);
  });

  it('inserts every column once', () => {
    const names = ASSET_SOURCE_INSERT_COLUMNS.map((column) => column.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toHaveLength(dataSource.getMetadata(AssetSource).columns.length);
  });
});
