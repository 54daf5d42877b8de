import { ASSET_FIELDS, type AssetFieldValues } from '../../database/tables/assets.table.js';
import type { IngestAsset } from '../ingest-payload.js';
import type { PlanContext, StoredAsset } from './ingest-plan.js';
import { DEFAULT_MATCH_KEYS, type MatchRule } from '../match/identity-match.js';

/** A plan context whose new ids count up: new-1, new-2, ... */
export function testContext(
  source: string | null = null,
  match: MatchRule = { keys: DEFAULT_MATCH_KEYS, site: null },
): PlanContext {
  let next = 0;
  return { source, match, newId: () => `new-${++next}` };
}

/**
 * A stored asset as a merge reads it: its fields null but its name (its id), its lists empty
 * (but its ip); `seen: 0` unless
 * given (never named with a source).
 */
export function storedAsset(id: string, fields: Partial<StoredAsset> = {}): StoredAsset {
  return {
    ...(Object.fromEntries(
      ASSET_FIELDS.map((field) => [field, null]),
    ) as unknown as AssetFieldValues),
    id,
    name: id,
    source: null,
    seen: 0,
    // As stored: the first address is the ip.
    addresses: fields.ip ?? '',
    mac_addresses: '',
    hostnames: '',
    tags: '',
    ...fields,
  };
}

export function item(index: number, rest: Omit<IngestAsset, 'index'>): IngestAsset {
  return { index, ...rest };
}
