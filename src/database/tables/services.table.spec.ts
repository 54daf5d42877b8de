import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { ENTITIES } from '../entities.js';
import { Service } from '../entities/service.entity.js';
import { SERVICE_COLUMNS, SERVICE_INSERT_COLUMNS, serviceRow } from './services.table.js';

describe('the services table', () => {
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
        .getMetadata(Service)
        .columns.map((column) => [column.propertyName, column.databaseName]),
    );
    const listed = Object.fromEntries(
      Object.entries(SERVICE_COLUMNS).map(([property, column]) => [property, column.name]),
    );
    expect(listed).toEqual(mapped);
  });

  it('inserts every column once', () => {
    const names = SERVICE_INSERT_COLUMNS.map((column) => column.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toHaveLength(dataSource.getMetadata(Service).columns.length);
  });

  it("makes an insert's row in the columns' order", () => {
    const row = serviceRow('assetId', {
      port: 'port',
      protocol: 'protocol',
      name: 'name',
      product: 'product',
      version: 'version',
    } as never);
    expect(row).toEqual(Object.keys(SERVICE_COLUMNS));
  });
});
