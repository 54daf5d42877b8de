import { describe, expect, it } from '@jest/globals';
import { Buffer } from 'node:buffer';
import { InvalidInputError } from '../common/errors/invalid-input.error.js';
import { decodeCursor, encodeCursor } from './asset-cursor.js';
import type { AssetSortField } from '../common/field-rules/inventory-values.js';

const raw = (content: unknown) => Buffer.from(JSON.stringify(content)).toString('base64url');

describe('asset list cursors', () => {
  it('read back what they were made of', () => {
    for (const cursor of [
      { sort: 'createdAt', key: '2026-11-24 13:42:37.123', id: 'host-1' },
      { sort: '-createdAt', key: '2026-11-24 13:42:37.123456+00', id: 'a "quoted" id' },
      { sort: '-ip', key: null, id: 'x' },
      { sort: 'risk_score', key: '42', id: 'y' },
      { sort: 'name', key: 'café ☕', id: 'z' },
    ]) {
      const field = cursor.sort.replace(/^-/, '') as AssetSortField;
      const after = encodeCursor(cursor);
      expect(after).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(decodeCursor(after, cursor.sort, field)).toEqual(cursor);
    }
  });

  it.each([
    ['garbage', 'not a cursor', 'createdAt'],
    ['another sort', raw(['-createdAt', '2026-01-01 00:00:00', 'a']), 'createdAt'],
    ['February 30th', raw(['createdAt', '2026-02-30 00:00:00', 'a']), 'createdAt'],
    ['hour 24', raw(['createdAt', '2026-02-03 24:00:00', 'a']), 'createdAt'],
    ['a missing name', raw(['name', null, 'a']), 'name'],
    ['a fractional risk score', raw(['risk_score', '4.5', 'a']), 'risk_score'],
    ['a numeric key', raw(['name', 5, 'a']), 'name'],
    ['a control character', raw(['name', 'a\nb', 'a']), 'name'],
    ['an id too long', raw(['name', 'a', 'i'.repeat(201)]), 'name'],
  ] satisfies [string, string, AssetSortField][])(
    'refuse %s, naming after',
    (_case, after, sort) => {
      expect(() => decodeCursor(after, sort, sort)).toThrow(InvalidInputError);
      expect(() => decodeCursor(after, sort, sort)).toThrow(/\bafter\b/);
    },
  );
});
