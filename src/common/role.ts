export enum Role {
  Viewer = 'viewer',
  Editor = 'editor',
  Admin = 'admin',
}

export const ROLES: readonly Role[] = [Role.Viewer, Role.Editor, Role.Admin];

/** Each role includes the ones below it. */
export function roleIncludes(held: Role, required: Role): boolean {
  return ROLES.indexOf(held) >= ROLES.indexOf(required);
}
