import { describe, expect, it } from '@jest/globals';
import { isoTimestamp, isoTimestampOrNull } from './timestamps.js';

describe('isoTimestamp', () => {
  it('rewrites the UTC text TypeORM and ingestion store in SQLite', () => {
    expect(isoTimestamp('2026-11-22 06:03:25.777')).toBe('2026-11-22T06:03:25.777Z');
  });

  it("normalises other text, such as SQLite's datetime('now') without milliseconds", () => {
    expect(isoTimestamp('2026-11-22 06:03:25')).toBe('2026-11-22T06:03:25.000Z');
    expect(isoTimestamp('2026-11-22 06:03:25.5')).toBe('2026-11-22T06:03:25.500Z');
  });

  it("rewrites PostgreSQL's text of a timestamptz in a UTC session, microseconds cut", () => {
    expect(isoTimestamp('2026-11-22 06:03:25.777+00')).toBe('2026-11-22T06:03:25.777Z');
    expect(isoTimestamp('2026-11-22 06:03:25.7+00')).toBe('2026-11-22T06:03:25.700Z');
    expect(isoTimestamp('2026-11-22 06:03:25+00')).toBe('2026-11-22T06:03:25.000Z');
    expect(isoTimestamp('2026-11-22 06:03:25.777999+00')).toBe('2026-11-22T06:03:25.777Z');
  });

  it("reads PostgreSQL's text in a session of another time zone through pg's parser", () => {
    expect(isoTimestamp('2026-11-22 07:03:25.777+01')).toBe('2026-11-22T06:03:25.777Z');
    expect(isoTimestamp('2026-11-22 00:33:25.5-05:30')).toBe('2026-11-22T06:03:25.500Z');
  });

  it('formats the Dates PostgreSQL hands back', () => {
    expect(isoTimestamp(new Date(Date.UTC(2026, 10, 22, 6, 3, 25, 7)))).toBe(
      '2026-11-22T06:03:25.007Z',
    );
  });
});

describe('isoTimestampOrNull', () => {
  it('keeps a missing sighting null and formats a present one as isoTimestamp does', () => {
    expect(isoTimestampOrNull(null)).toBeNull();
    expect(isoTimestampOrNull('2026-11-22 06:03:25.777')).toBe('2026-11-22T06:03:25.777Z');
    expect(isoTimestampOrNull(new Date(Date.UTC(2026, 0, 2)))).toBe('2026-01-02T00:00:00.000Z');
  });
});
