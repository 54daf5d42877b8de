import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import { Strategy } from 'passport-http-bearer';
import { API_KEY_STRATEGY } from '../../common/credentials.js';
import type { Principal } from '../../common/principal.js';
import { ApiKeysService } from '../api-keys.service.js';
import { toPrincipal } from '../principal.mapper.js';

@Injectable()
export class ApiKeyStrategy extends PassportStrategy(Strategy, API_KEY_STRATEGY) {
  constructor(private readonly apiKeys: ApiKeysService) {
    super({ passReqToCallback: true });
  }

  /**
   * An API key acts with the current role of the user who created it, within its own scopes,
   * sources and addresses (KeyRulesGuard and the ingestion check those).
   */
  async validate(request: FastifyRequest, token: string): Promise<Principal | false> {
    const found = await this.apiKeys.authenticate(token, request.ip);
    return found ? toPrincipal(found.user, found.apiKey) : false;
  }
}
