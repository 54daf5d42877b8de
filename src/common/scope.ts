import { Role } from './role.js';

/** What an API key may be used for (CONTRACT section 18), on top of its user's role. */
export enum Scope {
  Read = 'read',
  Write = 'write',
  Ingest = 'ingest',
  Admin = 'admin',
}

export const SCOPES: readonly Scope[] = [Scope.Read, Scope.Write, Scope.Ingest, Scope.Admin];

/** The scopes each role allows: a key's default, and the bound of what it may be granted. */
export const ROLE_SCOPES: Readonly<Record<Role, readonly Scope[]>> = {
  [Role.Viewer]: [Scope.Read],
  [Role.Editor]: [Scope.Read, Scope.Write, Scope.Ingest],
  [Role.Admin]: SCOPES,
};

export function roleAllowsScope(role: Role, scope: Scope): boolean {
  return ROLE_SCOPES[role].includes(scope);
}
