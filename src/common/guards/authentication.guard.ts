import { CanActivate, ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard, type IAuthGuard } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import { API_KEY_PREFIX, API_KEY_STRATEGY, JWT_STRATEGY } from '../credentials.js';
import { IS_PUBLIC } from '../decorators/public.decorator.js';

/** Runs one passport strategy and turns its failure into a 401 that says what was wrong. */
function strategyGuard(strategy: string): IAuthGuard {
  class StrategyGuard extends AuthGuard(strategy) {
    override handleRequest<T>(error: unknown, user: T | false, info: unknown): T {
      if (error instanceof Error) throw error;
      if (error || !user) {
        const reason = info instanceof Error ? info.message : 'invalid credentials';
        throw new UnauthorizedException(`Not authenticated: ${reason}`);
      }
      return user;
    }
  }
  return new StrategyGuard();
}

/**
 * Global guard: every route needs `Authorization: Bearer <token>` unless marked @Public().
 * The token's prefix picks the strategy, so an API key is never tried as a JWT or the reverse.
 */
@Injectable()
export class AuthenticationGuard implements CanActivate {
  private readonly jwt = strategyGuard(JWT_STRATEGY);
  private readonly apiKey = strategyGuard(API_KEY_STRATEGY);

  constructor(private readonly reflector: Reflector) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (isPublic) return true;

    const header = context.switchToHttp().getRequest<FastifyRequest>().headers.authorization;
    if (!header) throw new UnauthorizedException('Not authenticated: missing Authorization header');
    const match = /^Bearer +(\S+)$/i.exec(header);
    if (!match) {
      throw new UnauthorizedException('Not authenticated: Authorization must be "Bearer <token>"');
    }
    const guard = match[1].startsWith(API_KEY_PREFIX) ? this.apiKey : this.jwt;
    return (await guard.canActivate(context)) as boolean;
  }
}
