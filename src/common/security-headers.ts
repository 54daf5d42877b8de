import helmet, { type HelmetOptions } from 'helmet';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DOCS_PATH } from './openapi/openapi.js';

/** Every path of the API docs (the page, its assets and the JSON document) starts so. */
export const DOCS_PREFIX = `/${DOCS_PATH}`;

/** Sent with every answer over HTTPS (our own TLS, or a trusted proxy's X-Forwarded-Proto). */
export const HSTS = 'max-age=31536000; includeSubDomains';

/** Helmet's headers for the given options, worked out once instead of on every request. */
function headersOf(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string | number | string[]) => {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, () => {});
  return headers;
}

/**
 * Security headers from helmet, in two sets. (@fastify/helmet rebuilds helmet on every request,
 * which cost more than half of /api/health's throughput; these policies are static.)
 * - `api`, on JSON answers: what OWASP's REST cheat sheet asks of an API. Nothing may be framed
 *   or sniffed, and the policy allows no content at all. HSTS is added per request over HTTPS.
 * - `docs`, on the docs page and its assets: helmet's full set for an HTML document, with a
 *   policy under which Swagger UI runs (its scripts are served from here, not inline).
 * - `ui`, on the browser UI's page and files: helmet's full set with a stricter policy. Scripts,
 *   styles and requests only from this origin, nothing inline (the UI is built that way), and
 *   images only from here or data: URLs (the map's canvas exports).
 */
export function securityHeaderSets(): {
  api: Record<string, string>;
  docs: Record<string, string>;
  ui: Record<string, string>;
} {
  return {
    api: headersOf({
      frameguard: { action: 'deny' },
      hsts: false,
      contentSecurityPolicy: {
        useDefaults: false,
        directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
      },
      crossOriginOpenerPolicy: false,
      crossOriginResourcePolicy: false,
      originAgentCluster: false,
      xDnsPrefetchControl: false,
      xDownloadOptions: false,
      xPermittedCrossDomainPolicies: false,
      xXssProtection: false,
    }),
    docs: headersOf({
      frameguard: { action: 'deny' },
      hsts: false,
      contentSecurityPolicy: {
        directives: {
          frameAncestors: ["'none'"],
          // Over plain HTTP (development) upgrading would break the page's own requests.
          upgradeInsecureRequests: null,
        },
      },
    }),
    ui: headersOf({
      frameguard: { action: 'deny' },
      hsts: false,
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'"],
          imgSrc: ["'self'", 'data:'],
          connectSrc: ["'self'"],
          fontSrc: ["'self'"],
          objectSrc: ["'none'"],
          baseUri: ["'none'"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
        },
      },
    }),
  };
}
