import { describe, expect, it } from '@jest/globals';
import { VULNERABILITY_COLUMNS, vulnerabilityRow } from './vulnerabilities.table.js';

describe('the vulnerabilities table', () => {
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
