import type { Principal } from '../common/principal.js';
import type { ApiKey } from '../database/entities/api-key.entity.js';
import type { User } from '../database/entities/user.entity.js';

/** The request's caller, with the user's role as it stands now in the database. */
export function toPrincipal(
  user: Pick<User, 'id' | 'email' | 'name' | 'role'>,
  apiKey: Pick<ApiKey, 'id' | 'prefix' | 'scopes' | 'sources' | 'allowedCidrs'> | null = null,
): Principal {
  return {
    userId: user.id,
    email: user.email,
    name: user.name,
    role: user.role,
    apiKeyId: apiKey?.id ?? null,
    apiKeyPrefix: apiKey?.prefix ?? null,
    key: apiKey && {
      scopes: apiKey.scopes,
      sources: apiKey.sources,
      allowedCidrs: apiKey.allowedCidrs,
    },
  };
}
