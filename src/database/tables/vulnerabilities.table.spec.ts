import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { ENTITIES } from '../entities.js';
import { Vulnerability } from '../entities/vulnerability.entity.js';
import {
  VULNERABILITY_COLUMNS,
  VULNERABILITY_INSERT_COLUMNS,
  vulnerabilityRow,
} from './vulnerabilities.table.js';

describe('the vulnerabilities table', () => {
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
        .getMetadata(Vulnerability)
        .columns.map((column) => [column.propertyName, column.databaseName]),
    );
    const listed = Object.fromEntries(
      Object.entries(VULNERABILITY_COLUMNS).map(([property, column]) => [property, column.name]),
    );
    expect(listed).toEqual(mapped);
  });

  it('inserts every column once', () => {
    const names = VULNERABILITY_INSERT_COLUMNS.map((column) => column.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toHaveLength(dataSource.getMetadata(Vulnerability).columns.length);
  });

  it("makes an insert's row in the columns' order", () => {
    const row = vulnerabilityRow('assetId', {
      id: 'id',
      score: 'score',
      summary: 'summary',
      publishedDate: 'publishedDate',
    } as never);
    expect(row).toEqual(Object.keys(VULNERABILITY_COLUMNS));
  });
});
