import { describe, expect, it } from '@jest/globals';
import { SERVICE_COLUMNS, serviceRow } from './services.table.js';

describe('the services table', () => {
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
