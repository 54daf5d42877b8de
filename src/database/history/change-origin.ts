import { actorOf } from '../entities/actor-columns.js';
import type { Principal } from '../../common/principal.js';
import type { ChangeSet } from '../entities/change-set.entity.js';
import type { ChangeAction, ChangeObjectType } from '../entities/change.entity.js';

/** Who writes, through which request (and, for an ingestion, which run). */
export interface ChangeOrigin {
  caller: Principal;
  requestId: string;
  /** The ingestion run; null for any other request. */
  runId: string | null;
}

/** The change set of a write by `origin`: its columns. */
export function changeSetOf(origin: ChangeOrigin): Omit<ChangeSet, 'id'> {
  return {
    actor: actorOf(origin.caller),
    requestId: origin.requestId,
    runId: origin.runId,
  };
}

/** One object's change, as a feature hands it over: its before/after in the API's shape. */
export interface ChangeInput {
  action: ChangeAction;
  objectType: ChangeObjectType;
  objectId: string;
  before: object | null;
  after: object | null;
}

// Bookkeeping that moves with every write (or, lastSeenAt, with every sighting): the record's
// own time says when, so an update shows only what the write changed.
const NOT_COMPARED = new Set(['updatedAt', 'lastSeenAt']);

/**
 * An update's before and after, only the fields whose values differ (compared as JSON); null
 * when none does, and the write is no change worth a record.
 */
export function changedFields(
  before: object,
  after: object,
): { before: Record<string, unknown>; after: Record<string, unknown> } | null {
  const was = before as Record<string, unknown>;
  const is = after as Record<string, unknown>;
  const diff = { before: {} as Record<string, unknown>, after: {} as Record<string, unknown> };
  let changed = false;
  for (const key of new Set([...Object.keys(was), ...Object.keys(is)])) {
    if (NOT_COMPARED.has(key)) continue;
    if (JSON.stringify(was[key]) === JSON.stringify(is[key])) continue;
    diff.before[key] = was[key] ?? null;
    diff.after[key] = is[key] ?? null;
    changed = true;
  }
  return changed ? diff : null;
}

/** An update's record, or none when nothing but bookkeeping moved. */
export function updateChange(
  objectType: ChangeObjectType,
  objectId: string,
  before: object,
  after: object,
): ChangeInput[] {
  const diff = changedFields(before, after);
  return diff ? [{ action: 'update', objectType, objectId, ...diff }] : [];
}
