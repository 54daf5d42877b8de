import { ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';
import { AuthGuard, type IAuthGuard } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import { API_KEY_PREFIX, API_KEY_STRATEGY, JWT_STRATEGY } from '../credentials.js';

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
 * Needs `Authorization: Bearer <token>` (AccessGuard calls it for every route not @Public()).
 * The token's prefix picks the strategy, so an API key is never tried as a JWT or the reverse.
 */
@Injectable()
export class AuthenticationGuard {
  private readonly jwt = strategyGuard(JWT_STRATEGY);
  private readonly apiKey = strategyGuard(API_KEY_STRATEGY);

  async authenticate(context: ExecutionContext): Promise<boolean> {
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
