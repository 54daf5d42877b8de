import type { Principal } from '../common/principal.js';
import type { User } from '../database/entities/user.entity.js';

/** The request's caller, with the user's role as it stands now in the database. */
export function toPrincipal(
  user: Pick<User, 'id' | 'email' | 'name' | 'role'>,
  apiKey: { id: string; prefix: string } | null = null,
): Principal {
  return {
    userId: user.id,
    email: user.email,
    name: user.name,
    role: user.role,
    apiKeyId: apiKey?.id ?? null,
    apiKeyPrefix: apiKey?.prefix ?? null,
  };
}
