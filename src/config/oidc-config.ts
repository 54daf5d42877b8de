import { isIP } from 'node:net';

/** The roles a group may map to, as OIDC_ROLE_MAP and OIDC_DEFAULT_ROLE name them. */
export type OidcRoleName = 'viewer' | 'editor' | 'admin';
const ROLE_NAMES: readonly OidcRoleName[] = ['viewer', 'editor', 'admin'];

/** Single sign-on through an OpenID Connect provider; null in AppConfig when not set up. */
export interface OidcConfig {
  issuerUrl: URL;
  clientId: string;
  clientSecret: string;
  /** Asked for besides `openid email profile`. */
  extraScopes: string[];
  /** The ID token claim holding the user's groups. */
  roleClaim: string;
  /** Group name to role; the highest role of the user's groups wins. */
  roleMap: ReadonlyMap<string, OidcRoleName>;
  /** The role of a user none of whose groups is mapped; null: such a sign-in is refused. */
  defaultRole: OidcRoleName | null;
  /** The sign-in button's "Sign in with <name>"; null: a generic one. */
  displayName: string | null;
}

type Get = (name: string) => string | undefined;
type Fail = (name: string, why: string) => never;

const OPTIONAL = [
  'OIDC_SCOPES',
  'OIDC_ROLE_CLAIM',
  'OIDC_ROLE_MAP',
  'OIDC_DEFAULT_ROLE',
  'OIDC_DISPLAY_NAME',
];

function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}

/**
 * OIDC_ISSUER_URL, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET together turn single sign-on on; the
 * issuer is `https://`, or `http://` on a loopback address only (a provider run beside the
 * service in development or tests).
 */
export function readOidc(get: Get, fail: Fail): OidcConfig | null {
  const required = ['OIDC_ISSUER_URL', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'];
  const given = required.filter((name) => get(name) !== undefined);
  if (given.length === 0) {
    for (const name of OPTIONAL) {
      if (get(name) !== undefined) fail(name, 'applies only when OIDC_ISSUER_URL is set');
    }
    return null;
  }
  const missing = required.find((name) => get(name) === undefined);
  if (missing) fail(missing, `must be set with ${given.join(' and ')}`);

  const issuer = get('OIDC_ISSUER_URL')!;
  const url = URL.canParse(issuer) ? new URL(issuer) : null;
  if (
    !url ||
    !(url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback(url.hostname))) ||
    url.search !== '' ||
    url.hash !== ''
  ) {
    fail(
      'OIDC_ISSUER_URL',
      `must be an https:// URL (http:// only on a loopback address) without a query, got "${issuer}"`,
    );
  }

  const role = (name: string, value: string): OidcRoleName => {
    if (!ROLE_NAMES.includes(value as OidcRoleName)) {
      fail(name, `names the role "${value}": it must be viewer, editor or admin`);
    }
    return value as OidcRoleName;
  };

  const roleMap = new Map<string, OidcRoleName>();
  for (const entry of (get('OIDC_ROLE_MAP') ?? '').split(',')) {
    if (entry.trim() === '') continue;
    // A group may hold '=' (an LDAP DN): the role is after the last one.
    const at = entry.lastIndexOf('=');
    const group = entry.slice(0, at).trim();
    if (at < 0 || group === '') {
      fail('OIDC_ROLE_MAP', `must be group=role pairs separated by commas, got "${entry}"`);
    }
    if (roleMap.has(group)) fail('OIDC_ROLE_MAP', `names the group "${group}" twice`);
    roleMap.set(group, role('OIDC_ROLE_MAP', entry.slice(at + 1).trim()));
  }

  const defaultRole = get('OIDC_DEFAULT_ROLE');
  const extraScopes = (get('OIDC_SCOPES') ?? '')
    .split(/[\s,]+/)
    .filter((scope) => scope !== '' && !['openid', 'email', 'profile'].includes(scope));
  for (const scope of extraScopes) {
    if (!/^[\x21\x23-\x5b\x5d-\x7e]+$/.test(scope)) {
      fail('OIDC_SCOPES', `holds "${scope}", which is not a scope token`);
    }
  }

  return {
    issuerUrl: url,
    clientId: get('OIDC_CLIENT_ID')!,
    clientSecret: get('OIDC_CLIENT_SECRET')!,
    extraScopes,
    roleClaim: get('OIDC_ROLE_CLAIM') ?? 'groups',
    roleMap,
    defaultRole: defaultRole === undefined ? null : role('OIDC_DEFAULT_ROLE', defaultRole),
    displayName: get('OIDC_DISPLAY_NAME') ?? null,
  };
}

/**
 * PUBLIC_URL: the address users reach the service at (`https://assetmap.example.com`), the
 * base of the single sign-on's redirect URI; null: each request's own origin.
 */
export function readPublicUrl(get: Get, fail: Fail): string | null {
  const value = get('PUBLIC_URL');
  if (value === undefined) return null;
  const url = URL.canParse(value) ? new URL(value) : null;
  if (!url || !['http:', 'https:'].includes(url.protocol) || url.search || url.hash) {
    fail('PUBLIC_URL', `must be an http:// or https:// URL without a query, got "${value}"`);
  }
  return url.href.replace(/\/+$/, '');
}
