import { SetMetadata } from '@nestjs/common';
import type { Role } from '../role.js';

export const REQUIRED_ROLE = 'requiredRole';

/** The lowest role allowed on a route; higher roles include it. */
export const Roles = (role: Role) => SetMetadata(REQUIRED_ROLE, role);
