import { describe, expect, it } from '@jest/globals';
import { DIAGRAM_SUMMARY_PROPERTIES } from './diagrams.table.js';

describe('the diagrams table', () => {
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
