import { FindingPeriod } from '../../src/database/entities/finding-period.entity.js';
import type { TestApp } from './test-app.js';

export const DAY_MS = 86_400_000;

/** `YYYY-MM-DD` of a time's UTC day. */
export const dayOf = (time: Date | number): string => new Date(time).toISOString().slice(0, 10);

/** Noon (UTC) of the day `days` before the one of `time`: well inside that day. */
export const noonDaysBefore = (time: number, days: number): Date =>
  new Date(Math.floor(time / DAY_MS) * DAY_MS - days * DAY_MS + DAY_MS / 2);

/**
 * Written to the database (there is no waiting for a clock in a test): the span of a finding's
 * one period (the trend's).
 */
export const setPeriod = (t: TestApp, findingId: string, openedAt: Date, closedAt: Date | null) =>
  t.seed(() =>
    t.dataSource
      .createQueryBuilder()
      .update(FindingPeriod)
      .set({ openedAt, closedAt })
      .where('finding_id = :findingId', { findingId })
      .execute(),
  );
