import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Where `npm run build` puts the browser UI (web/dist), from src/ or dist/ alike. */
export const DEFAULT_WEB_ROOT = fileURLToPath(new URL('../../../web/dist/', import.meta.url));

/** The folder Vite writes its content-hashed files to, under the web root. */
const HASHED_PREFIX = '/static/';

/** Hashed file names change with their content: a year, never revalidated. */
const HASHED_CACHE = 'public, max-age=31536000, immutable';
/** Everything else (index.html, the icon) is checked on every load, so a new build shows at once. */
const UNHASHED_CACHE = 'no-cache';

/** `/api` and everything under it belongs to the API, whatever it answers. */
export function isApiPath(url: string): boolean {
  return url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');
}

/** A browser navigating (a link, the address bar, a reload) asks for HTML; fetch and curl do not. */
function wantsHtml(request: FastifyRequest): boolean {
  return (request.headers.accept ?? '').includes('text/html');
}

/**
 * Serves the browser UI built into `root`, if it was built: its files as they are, and
 * index.html for any other page a browser navigates to (the UI routes on the client). Paths
 * under /api, and requests that do not ask for HTML, keep the API's 404 `{"error"}`.
 * Returns whether the UI is served.
 */
export async function serveWebUi(fastify: FastifyInstance, root: string): Promise<boolean> {
  if (!existsSync(`${root}/index.html`)) return false;
  await fastify.register(fastifyStatic, {
    root,
    prefix: '/',
    // One route per built file, found at start-up, rather than a catch-all that would shadow
    // the API's unknown routes.
    wildcard: false,
    index: false,
    redirect: false,
    dotfiles: 'ignore',
    preCompressed: true,
    cacheControl: false,
    setHeaders: (reply: FastifyReply, path: string) => {
      const hashed = path.startsWith(`${root.replace(/\/$/, '')}${HASHED_PREFIX}`);
      reply.header('cache-control', hashed ? HASHED_CACHE : UNHASHED_CACHE);
    },
  });
  const page = (request: FastifyRequest, reply: FastifyReply) => {
    if (isApiPath(request.url) || !wantsHtml(request)) return reply.callNotFound();
    return reply.header('cache-control', UNHASHED_CACHE).sendFile('index.html');
  };
  fastify.get('/', page);
  fastify.get('/*', page);
  return true;
}
