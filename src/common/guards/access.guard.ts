import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { LOGIN_RATE_LIMIT } from '../decorators/login-rate-limit.decorator.js';
import { IS_PUBLIC } from '../decorators/public.decorator.js';
import { AuthenticationGuard } from './authentication.guard.js';
import { KeyRulesGuard } from './key-rules.guard.js';
import { RateLimitGuard } from './rate-limit.guard.js';
import { RolesGuard } from './roles.guard.js';

/**
 * The one global guard, denying by default: who the caller is, whether it is over its rate,
 * what its API key allows (address and scopes), then its role. A public route that is not rate limited (the health probes) is let through
 * at once, so that the probes pay for none of it.
 */
@Injectable()
export class AccessGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly authentication: AuthenticationGuard,
    private readonly rateLimit: RateLimitGuard,
    private readonly keyRules: KeyRulesGuard,
    private readonly roles: RolesGuard,
  ) {}

  // Synchronous for the probes: a promise would cost every one of them extra turns.
  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) {
      const limited = this.reflector.getAllAndOverride<boolean>(LOGIN_RATE_LIMIT, targets);
      return limited ? this.rateLimit.canActivate(context) : true;
    }
    return this.checkCaller(context);
  }

  private async checkCaller(context: ExecutionContext): Promise<boolean> {
    return (
      (await this.authentication.authenticate(context)) &&
      (await this.rateLimit.canActivate(context)) &&
      this.keyRules.canActivate(context) &&
      this.roles.canActivate(context)
    );
  }
}
