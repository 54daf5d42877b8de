import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { ENTITIES } from '../entities.js';
import { Asset } from '../entities/asset.entity.js';
import {
  ASSET_COLUMNS,
  ASSET_FIELDS,
  ASSET_INSERT_COLUMNS,
  assetFieldProperties,
} from './assets.table.js';

describe('the assets table', () => {
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
        .getMetadata(Asset)
        .columns.map((column) => [column.propertyName, column.databaseName]),
    );
    const listed = Object.fromEntries(
      Object.entries(ASSET_COLUMNS).map(([property, column]) => [property, column.name]),
    );
    expect(listed).toEqual(mapped);
  });

  it('inserts every column once, and derives the fields an item sets', () => {
    const names = ASSET_INSERT_COLUMNS.map((column) => column.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toHaveLength(dataSource.getMetadata(Asset).columns.length);
    expect(ASSET_FIELDS).toEqual([
      'name',
      'ip',
      'type',
      'vendor',
      'model',
      'risk_score',
      'site',
      'os_version',
    ]);
  });

  it("maps the fields an item carries to the entity's properties, null clearing one", () => {
    expect(assetFieldProperties({ risk_score: 40, os_version: null })).toEqual({
      riskScore: 40,
      osVersion: null,
    });
    expect(assetFieldProperties({ name: 'fw-1', ip: '10.0.0.1' }, null)).toEqual({
      name: 'fw-1',
      ip: '10.0.0.1',
      type: null,
      vendor: null,
      model: null,
      riskScore: null,
      site: null,
      osVersion: null,
    });
  });
});
