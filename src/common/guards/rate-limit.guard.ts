import { ExecutionContext, HttpException, HttpStatus, Injectable } from '@nestjs/common';
import {
  ThrottlerGuard,
  type ThrottlerLimitDetail,
  type ThrottlerRequest,
} from '@nestjs/throttler';
import type { FastifyReply } from 'fastify';
import { LOGIN_RATE_LIMIT } from '../decorators/login-rate-limit.decorator.js';
import type { Principal } from '../principal.js';

export const GENERAL_THROTTLER = 'default';
export const LOGIN_THROTTLER = 'login';

/**
 * Global rate limit (CONTRACT section 9). One budget per client across all routes: the API key
 * or user once authenticated, else the address. Login routes count against their own, smaller
 * budget per address instead. Runs after authentication so that the caller is known.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  protected override async handleRequest(request: ThrottlerRequest): Promise<boolean> {
    const { context, throttler } = request;
    const loginRoute = this.reflector.getAllAndOverride<boolean>(LOGIN_RATE_LIMIT, [
      context.getHandler(),
      context.getClass(),
    ]);
    if ((throttler.name === LOGIN_THROTTLER) !== Boolean(loginRoute)) return true;
    return super.handleRequest(request);
  }

  protected override getTracker(request: { ip: string; user?: Principal }): Promise<string> {
    const user = request.user;
    if (!user) return Promise.resolve(`ip:${request.ip}`);
    return Promise.resolve(user.apiKeyId ? `key:${user.apiKeyId}` : `user:${user.userId}`);
  }

  protected override generateKey(
    _context: ExecutionContext,
    tracker: string,
    name: string,
  ): string {
    return `${name}:${tracker}`;
  }

  protected override throwThrottlingException(
    context: ExecutionContext,
    detail: ThrottlerLimitDetail,
  ): Promise<void> {
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    const seconds = Math.max(1, Math.ceil(detail.timeToBlockExpire));
    reply.header('Retry-After', String(seconds));
    throw new HttpException(
      `Too many requests: retry in ${seconds} s`,
      HttpStatus.TOO_MANY_REQUESTS,
    );
  }
}
