import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { ENTITIES } from '../entities.js';
import { Diagram } from '../entities/diagram.entity.js';
import { DIAGRAM_COLUMNS, DIAGRAM_SUMMARY_PROPERTIES } from './diagrams.table.js';

describe('the diagrams table', () => {
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
        .getMetadata(Diagram)
        .columns.map((column) => [column.propertyName, column.databaseName]),
    );
    const listed = Object.fromEntries(
      Object.entries(DIAGRAM_COLUMNS).map(([property, column]) => [property, column.name]),
    );
    expect(listed).toEqual(mapped);
  });

  it('lists every property but the content', () => {
    expect(DIAGRAM_SUMMARY_PROPERTIES).toEqual([
      'id',
      'name',
      'description',
      'visibility',
      'ownerId',
      'createdAt',
      'updatedAt',
    ]);
  });
});
