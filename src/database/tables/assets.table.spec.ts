import { describe, expect, it } from '@jest/globals';
import { ASSET_FIELDS, assetFieldProperties } from './assets.table.js';

describe('the assets table', () => {
  it('derives the fields an item sets, in the table order', () => {
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
