import type { Role } from './role.js';
import type { Scope } from './scope.js';

/** The caller of an authenticated request, as the guard resolved it for this request. */
export interface Principal {
  userId: string;
  /** null for a service account, which has no e-mail. */
  email: string | null;
  name: string;
  role: Role;
  /** Set when the request authenticated with an API key rather than a session token. */
  apiKeyId: string | null;
  /** That key's displayable prefix (logs and change records name the key by it). */
  apiKeyPrefix: string | null;
  /** What the key may do (null for a session token); its user's role bounds it still. */
  key: KeyGrant | null;
}

/** The restrictions an API key carries, checked on every request it makes. */
export interface KeyGrant {
  scopes: readonly Scope[];
  /** The feeds it may ingest as; null: any. */
  sources: readonly string[] | null;
  /** The client address prefixes it may come from; null: any. */
  allowedCidrs: readonly string[] | null;
}
