import { describe, expect, it } from '@jest/globals';
import { timeOrderedUuid } from './time-ordered-uuid.js';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('timeOrderedUuid', () => {
  it('is a version 7 UUID carrying the time in its first 48 bits', () => {
    const at = Date.UTC(2026, 10, 22, 6, 3, 25, 777);
    const id = timeOrderedUuid(at);
    expect(id).toMatch(UUID_V7);
    expect(parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).toBe(at);
  });

  it('sorts by time, and differs within the same millisecond', () => {
    const ids = [1, 2, 3].map((ms) => timeOrderedUuid(1_700_000_000_000 + ms));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(Array.from({ length: 1000 }, () => timeOrderedUuid(1))).size).toBe(1000);
  });
});
