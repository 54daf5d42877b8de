import { createSecretKey } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { JWT_STRATEGY } from '../../common/credentials.js';
import type { Principal } from '../../common/principal.js';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import { toPrincipal } from '../principal.mapper.js';
import { UsersService } from '../users.service.js';

export interface SessionTokenPayload {
  sub: string;
  /** The user's token version when the token was issued; a password change bumps it. */
  ver: number;
}

@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, JWT_STRATEGY) {
  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly users: UsersService,
  ) {
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      // A KeyObject: given the string, jsonwebtoken first tries (and fails) to parse it as a PEM
      // public key on every request, a large share of an authenticated request's time.
      secretOrKey: createSecretKey(Buffer.from(config.jwt.secret, 'utf8')) as unknown as string,
      // Pinned: a token naming another algorithm (or "none") is refused before its signature.
      algorithms: ['HS256'],
      ignoreExpiration: false,
    });
  }

  /** Re-read on every request: a deleted user's token stops working, a new role applies at once. */
  async validate(payload: SessionTokenPayload): Promise<Principal | false> {
    if (typeof payload.sub !== 'string' || typeof payload.ver !== 'number') return false;
    const user = await this.users.findSessionUser(payload.sub);
    if (!user || user.tokenVersion !== payload.ver) return false;
    return toPrincipal(user);
  }
}
