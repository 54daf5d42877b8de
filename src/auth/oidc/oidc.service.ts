import { Inject, Injectable, Logger } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import * as client from 'openid-client';
import { ConflictError } from '../../common/errors/conflict.error.js';
import { Role, ROLES } from '../../common/role.js';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import type { OidcConfig } from '../../config/oidc-config.js';
import type { User } from '../../database/entities/user.entity.js';
import { UsersService } from '../users.service.js';
import { OidcSignInError } from './oidc-sign-in.error.js';

/** How long a sign-in may take at the provider (the transaction cookie's life). */
export const TRANSACTION_SECONDS = 600;
/** How long the UI has to take its session once the provider sent the user back. */
export const HANDOFF_SECONDS = 60;

/** What the login keeps, signed, in a cookie until the callback: nothing is kept server-side. */
interface Transaction {
  state: string;
  nonce: string;
  verifier: string;
  redirectUri: string;
}

/** The handoff cookie's content: whose session the UI takes. No `sub`: never a session token. */
interface Handoff {
  handoff: string;
  ver: number;
}

/**
 * OpenID Connect sign-in through `openid-client`: discovery, the code flow with PKCE (S256),
 * `state` and `nonce`, and the ID token verified against the issuer's keys. Users are found by
 * the issuer's `sub`, and their role is set again at every sign-in from their groups.
 */
@Injectable()
export class OidcService {
  private readonly logger = new Logger(OidcService.name);
  private readonly oidc: OidcConfig | null;
  private configuration: Promise<client.Configuration> | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly users: UsersService,
    private readonly jwt: JwtService,
  ) {
    this.oidc = config.oidc;
  }

  get enabled(): boolean {
    return this.oidc !== null;
  }

  get displayName(): string | null {
    return this.oidc?.displayName ?? null;
  }

  /**
   * The provider's authorization URL to send the browser to, and the signed transaction to keep
   * in a cookie until it comes back to `redirectUri`.
   */
  async start(redirectUri: string): Promise<{ url: URL; transaction: string }> {
    const oidc = this.required();
    const configuration = await this.discover();
    const tx: Transaction = {
      state: client.randomState(),
      nonce: client.randomNonce(),
      verifier: client.randomPKCECodeVerifier(),
      redirectUri,
    };
    const url = client.buildAuthorizationUrl(configuration, {
      redirect_uri: redirectUri,
      scope: ['openid', 'email', 'profile', ...oidc.extraScopes].join(' '),
      code_challenge: await client.calculatePKCECodeChallenge(tx.verifier),
      code_challenge_method: 'S256',
      state: tx.state,
      nonce: tx.nonce,
    });
    const transaction = await this.jwt.signAsync(
      { ...tx },
      { secret: this.secret('transaction'), expiresIn: TRANSACTION_SECONDS },
    );
    return { url, transaction };
  }

  /**
   * The user the provider's answer (`query`, the callback's query string) signs in: the state
   * checked against the transaction before the code is redeemed, then the ID token. Throws an
   * OidcSignInError, whose sentence the sign-in page shows.
   */
  async finish(
    query: URLSearchParams,
    transactionCookie: string | undefined,
    requestId: string,
  ): Promise<User> {
    const oidc = this.required();
    const providerError = query.get('error');
    if (providerError) {
      const description = query.get('error_description');
      throw new OidcSignInError(
        `The identity provider refused the sign-in: ${description ?? providerError}`,
      );
    }
    if (!transactionCookie) {
      throw new OidcSignInError(
        'The sign-in was not started in this browser, or took too long: start it again',
      );
    }
    let tx: Transaction;
    try {
      tx = await this.jwt.verifyAsync<Transaction>(transactionCookie, {
        secret: this.secret('transaction'),
        algorithms: ['HS256'],
      });
    } catch {
      throw new OidcSignInError('The sign-in took too long: start it again');
    }
    if (query.get('state') !== tx.state) {
      throw new OidcSignInError(
        "The identity provider's answer does not belong to this sign-in (state): start it again",
      );
    }
    const configuration = await this.discover();
    const currentUrl = new URL(tx.redirectUri);
    currentUrl.search = query.toString();
    let claims: client.IDToken;
    try {
      const tokens = await client.authorizationCodeGrant(configuration, currentUrl, {
        pkceCodeVerifier: tx.verifier,
        expectedState: tx.state,
        expectedNonce: tx.nonce,
        idTokenExpected: true,
      });
      claims = tokens.claims()!;
    } catch (error) {
      this.logger.warn(`OpenID Connect sign-in failed: ${(error as Error).message}`);
      throw new OidcSignInError(
        "The identity provider's answer could not be verified: sign in again, or ask an administrator to check the single sign-on settings",
      );
    }
    const role = this.roleOf(oidc, claims);
    // Kept within the columns' widths: the provider is trusted, its data only so far.
    const email =
      typeof claims.email === 'string' && claims.email.length <= 320 && claims.email.includes('@')
        ? claims.email
        : null;
    const name = [claims.name, claims.preferred_username, email, claims.sub]
      .find((value): value is string => typeof value === 'string' && value.trim() !== '')!
      .slice(0, 255);
    if (claims.sub.length > 255) {
      throw new OidcSignInError("The identity provider's subject (sub) is too long to be kept");
    }
    const identity = { subject: claims.sub, email, name, role };
    try {
      return await this.users.signInFromIssuer({ requestId, runId: null }, identity);
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
      throw new OidcSignInError(
        email && error.message.includes('email')
          ? `The e-mail ${email} is already another user's here: ask an administrator`
          : 'Signing you in would take the admin role from the last admin: ask an administrator',
      );
    }
  }

  /** The signed handoff the callback leaves in a cookie for the UI to take its session with. */
  handoff(user: User): Promise<string> {
    const handoff: Handoff = { handoff: user.id, ver: user.tokenVersion };
    return this.jwt.signAsync(handoff, {
      secret: this.secret('handoff'),
      expiresIn: HANDOFF_SECONDS,
    });
  }

  /** The user a handoff names, if it is valid, unexpired and the user's sessions still stand. */
  async redeem(handoffCookie: string | undefined): Promise<User | null> {
    if (!handoffCookie) return null;
    let handoff: Handoff;
    try {
      handoff = await this.jwt.verifyAsync<Handoff>(handoffCookie, {
        secret: this.secret('handoff'),
        algorithms: ['HS256'],
      });
    } catch {
      return null;
    }
    const user = await this.users.findById(handoff.handoff);
    return user && user.tokenVersion === handoff.ver ? user : null;
  }

  /** The highest role the user's groups map to, else the default one; else the sign-in fails. */
  private roleOf(oidc: OidcConfig, claims: client.IDToken): Role {
    const value = claims[oidc.roleClaim];
    const groups = Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
    const mapped = new Set<string>();
    for (const group of groups) {
      const role = typeof group === 'string' ? oidc.roleMap.get(group) : undefined;
      if (role) mapped.add(role);
    }
    const best = ROLES.filter((role) => mapped.has(role)).at(-1);
    if (best) return best;
    const fallback = ROLES.find((role) => role === (oidc.defaultRole as string | null));
    if (fallback) return fallback;
    throw new OidcSignInError(
      `None of your groups (the claim '${oidc.roleClaim}') is given a role here, and there is no default role: ask an administrator for access`,
    );
  }

  /** The provider's metadata, discovered once; a failed discovery is tried again next time. */
  private discover(): Promise<client.Configuration> {
    const oidc = this.required();
    this.configuration ??= client
      .discovery(oidc.issuerUrl, oidc.clientId, oidc.clientSecret, undefined, {
        execute: [
          // The ID token's signature is checked against the issuer's keys (its jwks_uri).
          client.enableNonRepudiationChecks,
          // http:// is allowed by the configuration only on a loopback address.
          ...(oidc.issuerUrl.protocol === 'http:' ? [client.allowInsecureRequests] : []),
        ],
      })
      .catch((error: unknown) => {
        this.configuration = null;
        this.logger.warn(`OpenID Connect discovery failed: ${(error as Error).message}`);
        throw new OidcSignInError(
          'The identity provider cannot be reached: try again later, or sign in with a password',
        );
      });
    return this.configuration;
  }

  private required(): OidcConfig {
    if (!this.oidc) throw new OidcSignInError('Single sign-on is not set up on this service');
    return this.oidc;
  }

  /** A secret of its own for each use, derived from JWT_SECRET. */
  private secret(use: 'transaction' | 'handoff'): string {
    return `${this.config.jwt.secret}:oidc-${use}`;
  }
}
