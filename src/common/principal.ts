import type { Role } from './role.js';

/** The caller of an authenticated request, as the guard resolved it for this request. */
export interface Principal {
  userId: string;
  email: string;
  name: string;
  role: Role;
  /** Set when the request authenticated with an API key rather than a session token. */
  apiKeyId: string | null;
  /** That key's displayable prefix (logs and change records name the key by it). */
  apiKeyPrefix: string | null;
}
