import { describe, expect, it } from '@jest/globals';
import { walksSortIndex } from './asset-search-plan.js';

describe('walksSortIndex', () => {
  const page = { skip: 0, take: 101 };

  it('walks the index when the matches are dense', () => {
    // The scale bench's `host 12`: 11,111 of 1M assets.
    expect(walksSortIndex({ ...page, matches: 11_111, assets: 1_000_000 })).toBe(true);
    expect(walksSortIndex({ ...page, matches: 1_000_000, assets: 1_000_000 })).toBe(true);
  });

  it('reads the matches when they are few', () => {
    expect(walksSortIndex({ ...page, matches: 1_111, assets: 1_000_000 })).toBe(false);
    expect(walksSortIndex({ ...page, matches: 0, assets: 1_000_000 })).toBe(false);
  });

  it('counts the rows skipped by an offset in the walk', () => {
    expect(walksSortIndex({ skip: 50_000, take: 101, matches: 11_111, assets: 1_000_000 })).toBe(
      false,
    );
  });

  it('walks a small store whatever the term, where both plans are cheap', () => {
    expect(walksSortIndex({ ...page, matches: 40, assets: 100 })).toBe(true);
  });
});
