import { BlockList, isIPv4, isIPv6 } from 'node:net';
import type { KeyGrant, Principal } from './principal.js';
import { Role, roleIncludes } from './role.js';
import { ROLE_SCOPES, Scope } from './scope.js';

// The rules an API key's restrictions set (CONTRACT section 18), each refusal a sentence that
// names the rule. The guard layer (guards/key-rules.guard.ts) applies those a route alone
// decides; the ingestion applies the one its body decides (the source it ingests as).

const IPV4_MAPPED = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i;

/** An address prefix as `allowedCidrs` holds it: `address/length`, or an address alone. */
export function parseCidr(
  value: string,
): { network: string; prefix: number; family: 'ipv4' | 'ipv6' } | null {
  const [network, length, extra] = value.split('/');
  if (extra !== undefined) return null;
  const family = isIPv4(network) ? 'ipv4' : isIPv6(network) ? 'ipv6' : null;
  if (!family) return null;
  const max = family === 'ipv4' ? 32 : 128;
  if (length === undefined) return { network, prefix: max, family };
  if (!/^\d{1,3}$/.test(length) || Number(length) > max) return null;
  return { network, prefix: Number(length), family };
}

/**
 * The address lists of the keys in use, by their prefixes: a key is read anew at each request,
 * and building its list costs several times checking an address against it. Bounded, as the
 * keys in use are; emptied when full.
 */
const blockLists = new Map<string, BlockList>();
const MAX_BLOCK_LISTS = 1000;

function blockListOf(cidrs: readonly string[]): BlockList {
  const id = cidrs.join(' ');
  let list = blockLists.get(id);
  if (!list) {
    list = new BlockList();
    for (const cidr of cidrs) {
      const parsed = parseCidr(cidr);
      if (parsed) list.addSubnet(parsed.network, parsed.prefix, parsed.family);
    }
    if (blockLists.size >= MAX_BLOCK_LISTS) blockLists.clear();
    blockLists.set(id, list);
  }
  return list;
}

/** Whether `address` (the client's, as TRUST_PROXY says) lies in one of `cidrs`. */
export function addressAllowed(cidrs: readonly string[], address: string): boolean {
  const list = blockListOf(cidrs);
  const mapped = IPV4_MAPPED.exec(address);
  if (mapped) return list.check(mapped[1], 'ipv4') || list.check(address, 'ipv6');
  return isIPv4(address) ? list.check(address, 'ipv4') : list.check(address, 'ipv6');
}

/** The refusal of a key used from outside its allowedCidrs, else null. */
export function addressRefusal(key: KeyGrant, address: string): string | null {
  if (key.allowedCidrs === null || addressAllowed(key.allowedCidrs, address)) return null;
  return `API key may not be used from ${address}: the address is outside its allowedCidrs`;
}

/** The refusal of a key holding none of `anyOf`, else null. */
export function scopeRefusal(key: KeyGrant, anyOf: readonly Scope[]): string | null {
  if (anyOf.some((scope) => key.scopes.includes(scope))) return null;
  return `API key lacks the scope ${anyOf.map((scope) => `'${scope}'`).join(' or ')}`;
}

/**
 * The refusal of a key narrower than its user's role (fewer scopes, bound sources or
 * addresses), else null: such a key may not make or change credentials, or it could make
 * itself a wider one.
 */
export function restrictedKeyRefusal(key: KeyGrant, role: Role): string | null {
  const narrower =
    ROLE_SCOPES[role].some((scope) => !key.scopes.includes(scope)) ||
    key.sources !== null ||
    key.allowedCidrs !== null;
  if (!narrower) return null;
  return 'API key is restricted (scopes, sources or allowedCidrs): managing API keys or the password needs a session or a key with every scope of its role and no sources or allowedCidrs';
}

/** The refusal of ingesting as `source` (null: none named) with the caller's key, else null. */
export function sourceRefusal(caller: Principal, source: string | null): string | null {
  const sources = caller.key?.sources;
  if (!sources || (source !== null && sources.includes(source))) return null;
  const bound = sources.map((name) => `'${name}'`).join(', ');
  return source === null
    ? `API key is bound to the sources ${bound}: the ingestion must name one of them as its source`
    : `API key may not ingest as the source '${source}': it is bound to the sources ${bound}`;
}

/** Whether the caller may act as an admin: its role, and the `admin` scope for a key. */
export function actsAsAdmin(caller: Principal): boolean {
  return (
    roleIncludes(caller.role, Role.Admin) &&
    (caller.key === null || caller.key.scopes.includes(Scope.Admin))
  );
}
