import type { ChangeInput } from '../../database/history/change-origin.js';
import { changedFields } from '../../database/history/change-origin.js';
import type { PlannedFinding } from '../../database/repositories/findings/finding-stored-rows.js';
import { isoTimestampOrNull } from '../../database/timestamps.js';
import type { FindingListPlan } from './plan-findings.js';

/**
 * The change records of the findings a plan fixes or reopens (their status fields, before and
 * after), at `now` (as the API shows a timestamp). A move of lastSeenAt, or new values, alone
 * records nothing.
 */
export function* findingStatusChanges(plan: FindingListPlan, now: string): Generator<ChangeInput> {
  for (const { stored, status } of plan.changes) {
    const finding = stored as PlannedFinding;
    let sides: [Record<string, unknown>, Record<string, unknown>] | null = null;
    if (status === 'fixed') {
      sides = [
        {
          status: finding.status,
          fixedAt: null,
          acceptedUntil: isoTimestampOrNull(finding.acceptedUntil),
        },
        { status: 'fixed', fixedAt: now, acceptedUntil: null },
      ];
    } else if (status === 'open') {
      sides = [
        {
          status: finding.status,
          fixedAt: isoTimestampOrNull(finding.fixedAt),
          reopenedAt: isoTimestampOrNull(finding.reopenedAt),
          reopenCount: finding.reopenCount,
        },
        { status: 'open', fixedAt: null, reopenedAt: now, reopenCount: finding.reopenCount + 1 },
      ];
    }
    if (sides === null) continue;
    const diff = changedFields(sides[0], sides[1]) ?? { before: {}, after: {} };
    yield { action: 'update', objectType: 'finding', objectId: finding.id, ...diff };
  }
}
