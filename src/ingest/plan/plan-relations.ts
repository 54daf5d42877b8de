import { InvalidInputError } from '../../common/errors/invalid-input.error.js';
import { jsonItemName, type IngestMode, type IngestRelation } from '../ingest-payload.js';
import type { IngestCounts, PlanContext, RelationRow } from './ingest-plan.js';

// Joined, not a template literal, whose result is a rope of string pieces: a large run holds
// its keys until it ends, and flat they take less memory.
export const relationKey = (source: string, target: string, type: string) =>
  [source, target, type].join('\u0000');

/** What a slice of relations is planned against. */
export interface RelationLookups {
  /** Each id the payload's assets give, to the id it resolved to. */
  payloadIds: ReadonlyMap<string, string>;
  /**
   * For relations ending at ips (scanner formats): each ip of the payload's asset items, to
   * the id its first item resolved to (matched or created).
   */
  payloadIps?: ReadonlyMap<string, string>;
  /**
   * Ends outside the payload, once looked up: the id of the stored asset each names (itself, or
   * for an id merged into another asset, that asset's), or null for none.
   */
  storedRefs: ReadonlyMap<string, string | null>;
  /** Stored relations (merge) from the assets matched or named, by relationKey. */
  storedByKey: ReadonlyMap<string, RelationRow>;
  /** merge: the first item of each relationKey in earlier slices. */
  seenBefore: ReadonlyMap<string, number>;
}

export interface RelationPlan {
  creates: RelationRow[];
  updates: RelationRow[];
  /** The stored row of each of `updates`, at the same index (for the change list). */
  updatedFrom: RelationRow[];
  /** Ids of the stored relations the slice lists. */
  kept: string[];
  /** merge: the first item of each relationKey in this slice. */
  seen: Map<string, number>;
  counts: Pick<IngestCounts, 'relationsCreated' | 'relationsUpdated' | 'relationsUnchanged'>;
}

/**
 * Each relation's ends resolve to a payload asset or a stored one (an id merged into another
 * asset resolves to that asset, as an item naming it would). In merge, a relation with
 * the stored one's ends and type updates it, and a payload may list each only once.
 */
export function planRelations(
  relations: readonly IngestRelation[],
  mode: IngestMode,
  lookups: RelationLookups,
  context: Pick<PlanContext, 'newId' | 'itemName'>,
): RelationPlan {
  const { payloadIds, payloadIps, storedRefs, storedByKey, seenBefore } = lookups;
  const name = (index: number) => (context.itemName ?? jsonItemName)('relations', index);
  const plan: RelationPlan = {
    creates: [],
    updates: [],
    updatedFrom: [],
    kept: [],
    seen: new Map(),
    counts: { relationsCreated: 0, relationsUpdated: 0, relationsUnchanged: 0 },
  };
  const resolve = (relation: IngestRelation, end: 'sourceAssetId' | 'targetAssetId') => {
    const ref = relation[end];
    if (relation.endsBy === 'ip') {
      const id = payloadIps?.get(ref);
      if (id === undefined) {
        const field = end === 'sourceAssetId' ? 'sourceAssetIp' : 'targetAssetIp';
        throw new InvalidInputError(
          `${name(relation.index)}.${field} is the ip of no asset of the body`,
        );
      }
      return id;
    }
    const id = payloadIds.get(ref) ?? storedRefs.get(ref);
    if (id === undefined || id === null) {
      throw new InvalidInputError(`${name(relation.index)}.${end} refers to no asset`);
    }
    return id;
  };
  for (const relation of relations) {
    const source = resolve(relation, 'sourceAssetId');
    const target = resolve(relation, 'targetAssetId');
    if (source === target) {
      throw new InvalidInputError(
        `${name(relation.index)} links an asset to itself once its ends are resolved`,
      );
    }
    const key = relationKey(source, target, relation.type);
    if (mode === 'merge') {
      const first = seenBefore.get(key) ?? plan.seen.get(key);
      if (first !== undefined) {
        throw new InvalidInputError(`${name(relation.index)} repeats ${name(first)}`);
      }
      plan.seen.set(key, relation.index);
    }
    const match = storedByKey.get(key);
    if (!match) {
      plan.creates.push({
        id: context.newId(),
        source_asset_id: source,
        target_asset_id: target,
        type: relation.type,
        direction: relation.direction ?? 'bi',
        protocol: relation.protocol ?? null,
        to_ports: relation.toPorts ?? null,
      });
      continue;
    }
    plan.kept.push(match.id);
    const merged: RelationRow = {
      ...match,
      direction: relation.direction ?? match.direction,
      protocol: relation.protocol !== undefined ? relation.protocol : match.protocol,
      to_ports: relation.toPorts !== undefined ? relation.toPorts : match.to_ports,
    };
    if (
      merged.direction !== match.direction ||
      merged.protocol !== match.protocol ||
      merged.to_ports !== match.to_ports
    ) {
      plan.updates.push(merged);
      plan.updatedFrom.push(match);
    }
  }
  plan.counts = {
    relationsCreated: plan.creates.length,
    relationsUpdated: plan.updates.length,
    relationsUnchanged: plan.kept.length - plan.updates.length,
  };
  return plan;
}
