import { isIP } from 'node:net';
import { parseCidr } from '../key-rules.js';

/*
 * An asset's identity lists (addresses, MAC addresses, host names) and its tags: how each value
 * is checked and written, the limits of a list, and the sortable key an address is indexed by
 * (asset_identifiers). REST and ingestion read them alike. The tags are kept as the identity
 * lists are (their values separated by spaces in the asset's row, a row each in
 * asset_identifiers), but match no asset in an ingestion.
 */

/** Most entries of one list. */
export const MAX_IDENTITY_ENTRIES = 64;
/** The longest host name (a DNS name's limit). */
export const MAX_HOSTNAME_LENGTH = 253;
/** The longest address text: the longest IPv6 form (as the ip column). */
const MAX_ADDRESS_LENGTH = 45;

/** Most tags of an asset. */
export const MAX_TAGS = 32;
/** The longest tag. */
export const MAX_TAG_LENGTH = 64;

/** The three identity lists, by their names in the API. */
export const IDENTITY_LISTS = ['addresses', 'macAddresses', 'hostnames'] as const;
export type IdentityList = (typeof IDENTITY_LISTS)[number];

/** An asset's three identity lists, normalized. */
export type IdentityValues = Record<IdentityList, string[]>;

/**
 * Every list an asset's row holds as text, its values separated by spaces: the identity lists,
 * then the tags.
 */
export const SPACED_LISTS = [...IDENTITY_LISTS, 'tags'] as const;
export type SpacedList = (typeof SPACED_LISTS)[number];

/** An asset's spaced lists, normalized. */
export type SpacedValues = Record<SpacedList, string[]>;

// A MAC address in any common notation: six pairs with `:` or `-`, three groups of four with
// `.` (Cisco), or twelve hexadecimal digits.
const MAC_NOTATIONS = [
  /^([0-9a-f]{2})[:-]([0-9a-f]{2})[:-]([0-9a-f]{2})[:-]([0-9a-f]{2})[:-]([0-9a-f]{2})[:-]([0-9a-f]{2})$/i,
  /^([0-9a-f]{2})([0-9a-f]{2})\.([0-9a-f]{2})([0-9a-f]{2})\.([0-9a-f]{2})([0-9a-f]{2})$/i,
  /^([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i,
];
// A DNS name once lowered: labels of letters, digits, `-` and `_` (service names), 1 to 63
// each, not starting or ending with `-`.
const LABEL = '[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?';
const HOSTNAME = new RegExp(`^${LABEL}(?:\\.${LABEL})*$`);

/** An IPv6 address's eight groups, or null (`::ffff:1.2.3.4` tails read as two groups). */
function ipv6Groups(address: string): number[] | null {
  let text = address;
  const tail = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (tail) {
    const [a, b, c, d] = tail.slice(1).map(Number);
    text = `${text.slice(0, tail.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const part = (half: string) => (half === '' ? [] : half.split(':').map((g) => parseInt(g, 16)));
  const head = part(halves[0]);
  const rest = halves.length === 2 ? part(halves[1]) : [];
  const fill = 8 - head.length - rest.length;
  if (halves.length === 2 ? fill < 1 : fill !== 0) return null;
  return [...head, ...new Array<number>(halves.length === 2 ? fill : 0).fill(0), ...rest];
}

/** An IPv6 address's groups written as RFC 5952 says: lower case, the longest zero run `::`. */
function ipv6Text(groups: number[]): string {
  let bestStart = -1;
  let bestLength = 1;
  for (let start = 0; start < 8;) {
    if (groups[start] !== 0) {
      start++;
      continue;
    }
    let end = start;
    while (end < 8 && groups[end] === 0) end++;
    if (end - start > bestLength) [bestStart, bestLength] = [start, end - start];
    start = end;
  }
  const hex = groups.map((group) => group.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}

/**
 * An address as the service writes it: IPv4 as given (a dotted quad), IPv6 in its RFC 5952
 * form with its zone id kept; null when it is not an IP address.
 */
export function normalizeAddress(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > MAX_ADDRESS_LENGTH) return null;
  const family = isIP(value);
  if (family === 4) return value;
  if (family !== 6) return null;
  const zoneAt = value.indexOf('%');
  const address = zoneAt < 0 ? value : value.slice(0, zoneAt);
  const groups = ipv6Groups(address.toLowerCase());
  if (groups === null) return null;
  return ipv6Text(groups) + (zoneAt < 0 ? '' : value.slice(zoneAt));
}

/** A MAC address as the service writes it (`aa:bb:cc:dd:ee:ff`), or null. */
export function normalizeMac(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  for (const notation of MAC_NOTATIONS) {
    const match = notation.exec(value);
    if (match) return match.slice(1).join(':').toLowerCase();
  }
  return null;
}

/** A host name as the service writes it (lower case, without a final dot), or null. */
export function normalizeHostname(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const name = value.toLowerCase().replace(/\.$/, '');
  return name.length <= MAX_HOSTNAME_LENGTH && HOSTNAME.test(name) ? name : null;
}

// Printable characters (no controls, no lone surrogates) and no white space: lists are written
// separated by spaces, in the asset's row as in a CSV cell, and read back split on white space.
const TAG = /^[\x21-\x7e\u00a0-\ud7ff\ue000-\u{10ffff}]+$/u;

/**
 * A tag as the service keeps it (as given, case kept), or null: 1 to 64 printable characters,
 * none of them white space.
 */
export function normalizeTag(value: unknown): string | null {
  if (typeof value !== 'string' || !TAG.test(value) || /\s/u.test(value)) return null;
  return [...value].length <= MAX_TAG_LENGTH ? value : null;
}

/** What a tag must be, as a problem says it. */
export const TAG_RULE_TEXT = `1 to ${MAX_TAG_LENGTH} printable characters without white space`;

const LIST_RULES: Record<
  SpacedList,
  { normalize: (value: unknown) => string | null; what: string; max: number }
> = {
  addresses: { normalize: normalizeAddress, what: 'an IP address', max: MAX_IDENTITY_ENTRIES },
  macAddresses: { normalize: normalizeMac, what: 'a MAC address', max: MAX_IDENTITY_ENTRIES },
  hostnames: {
    normalize: normalizeHostname,
    what: `a DNS name of at most ${MAX_HOSTNAME_LENGTH} characters`,
    max: MAX_IDENTITY_ENTRIES,
  },
  tags: { normalize: normalizeTag, what: TAG_RULE_TEXT, max: MAX_TAGS },
};

/**
 * A list as given (`path` names it in a problem: `assets[3].addresses`): its values normalized,
 * a repeat left out, in the order given; or the first problem.
 */
export function readIdentityList(
  list: SpacedList,
  value: unknown,
  path: string,
): { values: string[] } | { problem: string } {
  const { normalize, what, max } = LIST_RULES[list];
  if (!Array.isArray(value) || value.length > max)
    return { problem: `${path} must be an array of at most ${max} entries` };
  const values: string[] = [];
  for (const [index, entry] of value.entries()) {
    const normalized = normalize(entry);
    if (normalized === null) return { problem: `${path}[${index}] must be ${what}` };
    if (!values.includes(normalized)) values.push(normalized);
  }
  return { values };
}

/**
 * The key an address is indexed by: `4` and 8 hexadecimal digits, or `6` and 32 (the zone id
 * left out), so that the keys of a prefix's addresses are one range. Null for what is not an
 * address.
 */
export function addressKey(address: string): string | null {
  const family = isIP(address);
  if (family === 4)
    return `4${address
      .split('.')
      .map((octet) => Number(octet).toString(16).padStart(2, '0'))
      .join('')}`;
  if (family !== 6) return null;
  const zoneAt = address.indexOf('%');
  const groups = ipv6Groups((zoneAt < 0 ? address : address.slice(0, zoneAt)).toLowerCase());
  return groups && `6${groups.map((group) => group.toString(16).padStart(4, '0')).join('')}`;
}

/** The first and last keys of a prefix's addresses (`10.20.0.0/16`), or null when it is not one. */
export function prefixKeyRange(cidr: string): { low: string; high: string } | null {
  const parsed = parseCidr(cidr);
  if (parsed === null || !cidr.includes('/')) return null;
  const key = addressKey(parsed.network);
  if (key === null) return null;
  const bits = [...key.slice(1)]
    .map((digit) => parseInt(digit, 16).toString(2).padStart(4, '0'))
    .join('');
  const kept = bits.slice(0, parsed.prefix);
  const toKey = (filled: string) =>
    key[0] +
    (kept + filled.repeat(bits.length - parsed.prefix))
      .match(/.{4}/g)!
      .map((nibble) => parseInt(nibble, 2).toString(16))
      .join('');
  return { low: toKey('0'), high: toKey('1') };
}

/**
 * An asset's list as its row holds it: the values separated by single spaces (none holds a
 * space), so that `search` finds a substring of a value in that text as in the value itself.
 */
export const identityText = (values: readonly string[]): string => values.join(' ');

/** A list from its row's text. */
export const identityValues = (text: string | null | undefined): string[] =>
  text ? text.split(' ') : [];

/**
 * The `ip` and `addresses` an asset holds after a write that gives `ip` and `addresses` (each
 * undefined when absent), `stored` being its addresses before (empty for a new asset): `ip`
 * alone replaces the first address (null takes it away), `addresses` alone sets `ip` to its
 * first, both must agree. The first address is always `ip`. A problem names the field.
 */
export function resolveAddresses(
  ip: string | null | undefined,
  addresses: readonly string[] | undefined,
  stored: readonly string[],
): { ip: string | null; addresses: string[] } | { problem: string } {
  const address = ip === undefined || ip === null ? ip : normalizeAddress(ip);
  if (address === null && ip !== null) return { problem: 'ip must be an IP address' };
  if (addresses !== undefined) {
    if (address !== undefined && (addresses[0] ?? null) !== address)
      return { problem: 'ip must be the first of addresses when both are given' };
    return { ip: addresses[0] ?? null, addresses: [...addresses] };
  }
  if (address === undefined) return { ip: stored[0] ?? null, addresses: [...stored] };
  const others = stored.slice(1).filter((other) => other !== address);
  const list = address === null ? others : [address, ...others];
  return { ip: list[0] ?? null, addresses: list };
}
