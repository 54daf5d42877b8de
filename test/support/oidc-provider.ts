import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Configuration } from 'oidc-provider';
import { TestApp } from './test-app.js';

export const CLIENT_ID = 'asset-map';
export const CLIENT_SECRET = 'a-client-secret-for-the-tests';
/** The groups the provider's people may be in, and the role each gives. */
export const OIDC_ROLE_MAP = 'netops=editor,security=admin,staff=viewer';

/** A person at the provider: the claims its ID token carries. */
export interface Account {
  sub: string;
  email?: string;
  name?: string;
  groups?: string[] | string;
}

/**
 * A real OpenID Connect provider (`oidc-provider`) on a free port of the loopback. Its sign-in
 * page is skipped: whoever is `next` signs in, and consents, at once.
 */
export class TestOidcProvider {
  /** Who the next sign-in is. */
  next: Account = { sub: 'nobody' };
  private provider: Provider | null = null;

  private constructor(
    private readonly server: Server,
    readonly issuer: string,
  ) {}

  static async start(): Promise<TestOidcProvider> {
    let handle: (request: IncomingMessage, response: ServerResponse) => void = () => {};
    const server = createServer((request, response) => handle(request, response));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const started = new TestOidcProvider(server, `http://127.0.0.1:${port}`);
    handle = (request, response) => void started.handle(request, response);
    return started;
  }

  /** The provider, made once the client's redirect URI (the service's address) is known. */
  register(redirectUri: string): void {
    const accounts = () => this.next;
    const configuration: Configuration = {
      clients: [
        {
          client_id: CLIENT_ID,
          client_secret: CLIENT_SECRET,
          redirect_uris: [redirectUri],
          grant_types: ['authorization_code'],
          response_types: ['code'],
        },
      ],
      claims: {
        openid: ['sub'],
        email: ['email', 'email_verified'],
        profile: ['name'],
        groups: ['groups'],
      },
      scopes: ['openid', 'email', 'profile', 'groups'],
      // The claims go in the ID token itself, which is what the service reads.
      conformIdTokenClaims: false,
      findAccount: (_context, id) => ({
        accountId: id,
        claims: () => ({ ...accounts(), sub: id }),
      }),
      features: { devInteractions: { enabled: false } },
      interactions: { url: (_context, interaction) => `/interaction/${interaction.uid}` },
      // Consent is given at once, for every scope asked.
      loadExistingGrant: async (context) => {
        const grant = new context.oidc.provider.Grant({
          clientId: context.oidc.client!.clientId,
          accountId: context.oidc.session!.accountId!,
        });
        grant.addOIDCScope('openid email profile groups');
        await grant.save();
        return grant;
      },
      cookies: { keys: ['a-cookie-key-for-the-tests'] },
    };
    this.provider = new Provider(this.issuer, configuration);
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const provider = this.provider;
    if (!provider) {
      response.statusCode = 503;
      response.end();
      return;
    }
    try {
      if (request.url?.startsWith('/interaction/')) {
        await provider.interactionDetails(request, response);
        await provider.interactionFinished(
          request,
          response,
          { login: { accountId: this.next.sub } },
          { mergeWithLastSubmission: false },
        );
        return;
      }
      void provider.callback()(request, response);
    } catch (error) {
      response.statusCode = 500;
      response.end(String(error));
    }
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * The service with single sign-on through a provider started here on the loopback, the
 * service's callback registered with it: groups map to roles, and its button reads
 * "Sign in with Test IdP". `env` adds or overrides settings.
 */
export async function startWithOidcProvider(
  env: Record<string, string> = {},
): Promise<{ provider: TestOidcProvider; t: TestApp }> {
  const provider = await TestOidcProvider.start();
  try {
    const t = await TestApp.start({
      OIDC_ISSUER_URL: provider.issuer,
      OIDC_CLIENT_ID: CLIENT_ID,
      OIDC_CLIENT_SECRET: CLIENT_SECRET,
      OIDC_SCOPES: 'groups',
      OIDC_ROLE_MAP: OIDC_ROLE_MAP,
      OIDC_DISPLAY_NAME: 'Test IdP',
      ...env,
    });
    provider.register(`${t.baseUrl}/api/auth/oidc/callback`);
    return { provider, t };
  } catch (error) {
    await provider.close();
    throw error;
  }
}

/**
 * A browser's redirects, followed by hand with a cookie jar per origin, from `start` until a
 * page of `stopAt` (the UI) is reached. Each Location header is kept.
 */
export async function browse(
  start: string,
  stopAt: string,
  jar = new Map<string, Map<string, string>>(),
): Promise<{ url: URL; locations: string[]; jar: Map<string, Map<string, string>> }> {
  let url = new URL(start);
  const locations: string[] = [];
  for (let hops = 0; hops < 20; hops++) {
    if (url.origin === stopAt && !url.pathname.startsWith('/api/')) return { url, locations, jar };
    const cookies = jar.get(url.origin) ?? new Map<string, string>();
    jar.set(url.origin, cookies);
    const response = await fetch(url, {
      redirect: 'manual',
      headers: { cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; ') },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const cleared = attributes.some((attribute) =>
        /^\s*(max-age=0|expires=thu, 01 jan 1970)/i.test(attribute),
      );
      if (cleared) cookies.delete(name);
      else cookies.set(name, pair.slice(at + 1).trim());
    }
    await response.arrayBuffer();
    const location = response.headers.get('location');
    if (!location) throw new Error(`${url.href} answered ${response.status} without a redirect`);
    locations.push(location);
    url = new URL(location, url);
  }
  throw new Error('too many redirects');
}
