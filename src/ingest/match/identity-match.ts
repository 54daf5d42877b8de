import { addressKey, normalizeAddress } from '../../common/field-rules/identity-values.js';
import type { IdentifierKind } from '../../database/entities/asset-identifier.entity.js';
import type { IngestAsset } from '../ingest-payload.js';

/** The keys a merge item without a stored id may match a stored asset by, in the order tried. */
export const IDENTITY_MATCH_KEYS = ['mac', 'ip', 'hostname'] as const;
export type IdentityMatchKey = (typeof IDENTITY_MATCH_KEYS)[number];

/** The default `matchBy` beside `id`. */
export const DEFAULT_MATCH_KEYS: readonly IdentityMatchKey[] = ['mac', 'ip'];

/** How a merge matches: the keys tried after `id` (in IDENTITY_MATCH_KEYS' order), the run's site. */
export interface MatchRule {
  keys: readonly IdentityMatchKey[];
  /** The run's `site` option, which every item without its own takes; null when none. */
  site: string | null;
}

/** The identifier rows each key looks up. */
export const KEY_KINDS: Record<IdentityMatchKey, IdentifierKind> = {
  mac: 'mac',
  ip: 'ip',
  hostname: 'host',
};

/** What matching needs of a stored asset: its id, site and when it was created. */
export interface MatchableAsset {
  id: string;
  site: string | null;
}

/**
 * The identifier values (as asset_identifiers holds them) an item looks stored assets up by for
 * `key`: its addresses' keys (its `ip` when it gives no list), its MAC addresses, its host names.
 */
export function itemIdentifiers(asset: IngestAsset, key: IdentityMatchKey): string[] {
  const identity = asset.identity ?? {};
  if (key === 'mac') return identity.macAddresses ?? [];
  if (key === 'hostname') return identity.hostnames ?? [];
  const ip = asset.fields.ip ? normalizeAddress(asset.fields.ip) : null;
  const addresses = identity.addresses ?? (ip ? [ip] : []);
  return addresses.flatMap((address) => addressKey(address) ?? []);
}

/** The site an item matches `ip` and `hostname` within: its own, else the run's; null for none. */
export function itemSite(asset: IngestAsset, rule: MatchRule): string | null {
  return asset.fields.site ?? rule.site;
}

/**
 * The stored assets a merge item may match once its id matched none, best first: for each key
 * of the rule in turn (mac, ip, hostname), the assets holding one of the item's values
 * (`holders(kind, value)`, the earliest created first), those of another site left out for
 * `ip` and `hostname` when the item has a site (a stored asset without a site is of none); each
 * asset once. The plan takes the first that no other item takes.
 */
export function identityCandidates<A extends MatchableAsset>(
  asset: IngestAsset,
  rule: MatchRule,
  holders: (kind: IdentifierKind, value: string) => readonly A[] | undefined,
  createdOrder: (a: A, b: A) => number,
): A[] {
  const site = itemSite(asset, rule);
  const found: A[] = [];
  const seen = new Set<string>();
  for (const key of IDENTITY_MATCH_KEYS) {
    if (!rule.keys.includes(key)) continue;
    const scoped = key !== 'mac' && site !== null;
    const ofKey: A[] = [];
    for (const value of itemIdentifiers(asset, key)) {
      for (const holder of holders(KEY_KINDS[key], value) ?? []) {
        if (seen.has(holder.id) || (scoped && holder.site !== site)) continue;
        seen.add(holder.id);
        ofKey.push(holder);
      }
    }
    found.push(...ofKey.sort(createdOrder));
  }
  return found;
}
