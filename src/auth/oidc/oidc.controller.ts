import { Controller, Get, HttpCode, HttpStatus, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LoginRateLimit } from '../../common/decorators/login-rate-limit.decorator.js';
import { Public } from '../../common/decorators/public.decorator.js';
import { UnauthorizedError } from '../../common/errors/unauthorized.error.js';
import { NotFoundError } from '../../common/errors/not-found.error.js';
import { UnavailableError } from '../../common/errors/unavailable.error.js';
import { ApiErrorResponses } from '../../common/openapi/api-error-responses.decorator.js';
import { ApiBrowserRedirect } from '../../common/openapi/api-redirect-responses.decorator.js';
import { LOGIN_RATE_LIMIT_HEADERS } from '../../common/openapi/headers.js';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import { AuthService } from '../auth.service.js';
import { AuthConfigResponse } from '../dto/auth-config-response.dto.js';
import { LoginResponse } from '../dto/login-response.dto.js';
import { OidcSignInError } from './oidc-sign-in.error.js';
import { HANDOFF_SECONDS, OidcService, TRANSACTION_SECONDS } from './oidc.service.js';

const CALLBACK_PATH = '/api/auth/oidc/callback';
/** Both cookies are sent to the sign-in routes only, never to the rest of the API. */
const COOKIE_PATH = '/api/auth/oidc';
const TRANSACTION_COOKIE = 'assetmap_oidc';
const HANDOFF_COOKIE = 'assetmap_sso';
const SIGN_IN_PAGE = '/login';

/**
 * Single sign-on (OpenID Connect). The session reaches the UI through a handoff: the callback
 * leaves a short-lived, signed, HttpOnly cookie (SameSite=Strict, sent to these routes only) and
 * sends the browser to the sign-in page, whose script trades it once for an ordinary session
 * token with POST /api/auth/oidc/session. The token is thus never in a URL nor in a log line,
 * the API itself stays cookie-free (a bearer token is sent by the UI's code only, so no other
 * site can make a browser send it), and nothing is kept server-side between the steps, so any
 * replica may answer each of them.
 */
@ApiTags('auth')
@Controller('auth')
export class OidcController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly oidc: OidcService,
    private readonly auth: AuthService,
  ) {}

  @Public()
  @Get('config')
  @ApiOperation({
    summary: 'How one may sign in',
    description:
      'Public. `oidc.enabled` when single sign-on is set up, and `oidc.name` (OIDC_DISPLAY_NAME) for its button; password sign-in always stands.',
  })
  @ApiOkResponse({ type: AuthConfigResponse })
  @ApiErrorResponses(429)
  authConfig(): AuthConfigResponse {
    return {
      password: true,
      oidc: { enabled: this.oidc.enabled, name: this.oidc.displayName },
    };
  }

  @Public()
  @LoginRateLimit()
  @Get('oidc/login')
  @ApiOperation({
    summary: 'Start a single sign-on',
    description:
      "Public. Redirects (302) to the identity provider: the code flow with PKCE (S256), `state` and `nonce`, scope `openid email profile` and OIDC_SCOPES. The redirect URI is PUBLIC_URL (or the request's own origin) followed by /api/auth/oidc/callback.",
  })
  @ApiBrowserRedirect(
    "to the identity provider's authorization endpoint",
    { status: 404, description: 'Single sign-on is not set up' },
    { status: 429, description: 'Too many sign-in attempts from this address' },
    { status: 503, description: 'The identity provider cannot be reached' },
  )
  async login(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    if (!this.oidc.enabled) throw new NotFoundError('Single sign-on is not set up');
    let started: { url: URL; transaction: string };
    try {
      started = await this.oidc.start(`${this.baseUrl(request)}${CALLBACK_PATH}`);
    } catch (error) {
      if (error instanceof OidcSignInError) throw new UnavailableError(error.message);
      throw error;
    }
    const { url, transaction } = started;
    void reply
      .setCookie(TRANSACTION_COOKIE, transaction, {
        ...cookieOptions(TRANSACTION_SECONDS),
        // Sent back on the provider's redirect, a navigation from another site.
        sameSite: 'lax',
      })
      .redirect(url.href, 302);
  }

  @Public()
  @LoginRateLimit()
  @Get('oidc/callback')
  @ApiOperation({
    summary: "The identity provider's redirect back",
    description:
      "Public. Checks `state`, redeems the code, verifies the ID token (signature against the issuer's keys, `iss`, `aud`, `exp`, `nonce`), finds or creates the user by `sub` and sets its role from its groups; then redirects (302) to the UI's sign-in page, which takes its session with POST /api/auth/oidc/session. A failure redirects there too, with `?sso_error=` and a sentence saying why.",
  })
  @ApiBrowserRedirect(
    "to the UI's sign-in page: `/login?sso=1` signed in, else `/login?sso_error=` and why (single sign-on not set up included)",
    { status: 429, description: 'Too many sign-in attempts from this address' },
  )
  async callback(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const query = new URLSearchParams(request.url.split('?')[1] ?? '');
    const cookies = request.server.parseCookie(request.headers.cookie ?? '');
    void reply.clearCookie(TRANSACTION_COOKIE, { path: COOKIE_PATH });
    let location: string;
    try {
      const user = await this.oidc.finish(query, cookies[TRANSACTION_COOKIE], request.id);
      void reply.setCookie(HANDOFF_COOKIE, await this.oidc.handoff(user), {
        ...cookieOptions(HANDOFF_SECONDS),
        sameSite: 'strict',
      });
      location = `${SIGN_IN_PAGE}?sso=1`;
    } catch (error) {
      if (!(error instanceof OidcSignInError)) throw error;
      location = `${SIGN_IN_PAGE}?sso_error=${encodeURIComponent(error.message)}`;
    }
    void reply.redirect(`${this.publicBase()}${location}`, 302);
  }

  @Public()
  @LoginRateLimit()
  @Post('oidc/session')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    summary: 'Take the session of a single sign-on',
    description:
      "Public. Trades the handoff cookie the callback left (valid one minute, once) for an ordinary session token, as POST /api/auth/login answers it. The UI's sign-in page calls it; no body.",
  })
  @ApiOkResponse({ type: LoginResponse, headers: LOGIN_RATE_LIMIT_HEADERS })
  @ApiErrorResponses(
    { status: 401, description: 'No valid handoff cookie: sign in again' },
    { status: 429, description: 'Too many sign-in attempts from this address' },
  )
  async session(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<LoginResponse> {
    const cookies = request.server.parseCookie(request.headers.cookie ?? '');
    void reply.clearCookie(HANDOFF_COOKIE, { path: COOKIE_PATH });
    const user = await this.oidc.redeem(cookies[HANDOFF_COOKIE]);
    if (!user)
      throw new UnauthorizedError('No single sign-on to take a session from: sign in again');
    return this.auth.session(user);
  }

  /** Where the browser reaches the service: PUBLIC_URL, else this request's origin. */
  private baseUrl(request: FastifyRequest): string {
    return this.config.publicUrl ?? `${request.protocol}://${request.host}`;
  }

  /** The UI's pages are on the same origin: PUBLIC_URL's path, else a relative redirect. */
  private publicBase(): string {
    return this.config.publicUrl ?? '';
  }
}

function cookieOptions(maxAge: number) {
  return { path: COOKIE_PATH, httpOnly: true, secure: true, maxAge } as const;
}
