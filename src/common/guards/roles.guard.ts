import { CanActivate, ExecutionContext, ForbiddenException, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { REQUIRED_ROLE } from '../decorators/roles.decorator.js';
import type { Principal } from '../principal.js';
import { Role, roleIncludes } from '../role.js';

/** Refuses with 403 a caller whose role is below the route's @Roles() (run by AccessGuard). */
@Injectable()
export class RolesGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const required = this.reflector.getAllAndOverride<Role | undefined>(REQUIRED_ROLE, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!required) return true;
    const user = context.switchToHttp().getRequest<FastifyRequest & { user?: Principal }>().user;
    if (!user || !roleIncludes(user.role, required)) {
      throw new ForbiddenException(`This action requires the ${required} role`);
    }
    return true;
  }
}
