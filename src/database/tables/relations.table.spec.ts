import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { ENTITIES } from '../entities.js';
import { Relation } from '../entities/relation.entity.js';
import { RELATION_COLUMNS, RELATION_INSERT_COLUMNS } from './relations.table.js';

describe('the relations table', () => {
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
        .getMetadata(Relation)
        .columns.map((column) => [column.propertyName, column.databaseName]),
    );
    const listed = Object.fromEntries(
      Object.entries(RELATION_COLUMNS).map(([property, column]) => [property, column.name]),
    );
    expect(listed).toEqual(mapped);
  });

  it('inserts every column once', () => {
    const names = RELATION_INSERT_COLUMNS.map((column) => column.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toHaveLength(dataSource.getMetadata(Relation).columns.length);
  });
});
