import { describe, expect, it } from '@jest/globals';
import { firstIdAt, RecordIds } from './record-ids.js';

/** The milliseconds a UUIDv7 carries: its first 48 bits. */
const msOf = (id: string) => parseInt(id.replaceAll('-', '').slice(0, 12), 16);

describe('RecordIds', () => {
  const time = new Date('2026-11-25T10:20:30.456Z');

  it('makes UUIDv7s of the given time, unique and in the order taken', () => {
    const ids = new RecordIds(time);
    const taken = Array.from({ length: 300 }, () => ids.next());
    for (const id of taken) {
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(msOf(id)).toBe(time.getTime());
    }
    expect(new Set(taken).size).toBe(taken.length);
    expect([...taken].sort()).toEqual(taken);
    expect(ids.reserve(2)).toBe(300);
    expect(ids.next().endsWith('00000000012e')).toBe(true);
  });

  it('gives two writes of the same millisecond different ids', () => {
    expect(new RecordIds(time).prefix).not.toBe(new RecordIds(time).prefix);
  });
});

describe('firstIdAt', () => {
  it('is at or below every id of its millisecond and after, above every id before', () => {
    const time = new Date('2026-11-25T10:20:30.456Z');
    const bound = firstIdAt(time);
    const before = new Date(time.getTime() - 1);
    for (let i = 0; i < 50; i++) {
      expect(new RecordIds(time).next() >= bound).toBe(true);
      expect(new RecordIds(new Date(time.getTime() + 1)).next() >= bound).toBe(true);
      expect(new RecordIds(before).next() < bound).toBe(true);
    }
  });
});
