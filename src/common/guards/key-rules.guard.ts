import { ExecutionContext, ForbiddenException, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { KEY_SCOPE, type KeyScopeRule } from '../decorators/key-scope.decorator.js';
import { REQUIRED_ROLE } from '../decorators/roles.decorator.js';
import { addressRefusal, restrictedKeyRefusal, scopeRefusal } from '../key-rules.js';
import type { Principal } from '../principal.js';
import { Role } from '../role.js';
import { Scope } from '../scope.js';

/** Each entry a set of scopes one of which the key must hold; or a key no narrower than its role. */
type Requirement = readonly (readonly Scope[])[] | 'unrestricted';

/**
 * Refuses with 403 a request made with an API key from outside its allowedCidrs, or beyond its
 * scopes (run by AccessGuard before the role check). A route's scopes follow from its method
 * and @Roles() unless @KeyScope() says otherwise: a GET needs `read`, any other method `write`;
 * an admin route needs `admin` (and `read` as well for a GET). Worked out once per route.
 */
@Injectable()
export class KeyRulesGuard {
  private readonly requirements = new WeakMap<object, Requirement>();

  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest & { user?: Principal }>();
    const caller = request.user;
    if (!caller?.key) return true;
    const requirement = this.requirementOf(context, request.method);
    const refusal =
      addressRefusal(caller.key, request.ip) ??
      (requirement === 'unrestricted'
        ? restrictedKeyRefusal(caller.key, caller.role)
        : firstRefusal(requirement, (anyOf) => scopeRefusal(caller.key!, anyOf)));
    if (refusal) throw new ForbiddenException(refusal);
    return true;
  }

  private requirementOf(context: ExecutionContext, method: string): Requirement {
    const handler = context.getHandler();
    let requirement = this.requirements.get(handler);
    if (!requirement) {
      requirement = this.derive(context, method);
      this.requirements.set(handler, requirement);
    }
    return requirement;
  }

  private derive(context: ExecutionContext, method: string): Requirement {
    const targets = [context.getHandler(), context.getClass()];
    const rule = this.reflector.getAllAndOverride<KeyScopeRule | undefined>(KEY_SCOPE, targets);
    if (rule === 'unrestricted') return rule;
    if (rule) return rule.anyOf.length ? [rule.anyOf] : [];
    const admin =
      this.reflector.getAllAndOverride<Role | undefined>(REQUIRED_ROLE, targets) === Role.Admin;
    const reading = method === 'GET' || method === 'HEAD';
    if (admin) return reading ? [[Scope.Read], [Scope.Admin]] : [[Scope.Admin]];
    return reading ? [[Scope.Read]] : [[Scope.Write]];
  }
}

function firstRefusal(
  requirement: readonly (readonly Scope[])[],
  refusal: (anyOf: readonly Scope[]) => string | null,
): string | null {
  for (const anyOf of requirement) {
    const found = refusal(anyOf);
    if (found) return found;
  }
  return null;
}
