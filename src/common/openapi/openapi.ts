import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  DocumentBuilder,
  SwaggerModule,
  type OpenAPIObject,
  type ResponseObject,
} from '@nestjs/swagger';
import { BEARER_AUTH } from './api-error-responses.decorator.js';
import { RATE_LIMIT_HEADERS, REQUEST_ID_HEADER } from './headers.js';
import {
  closeRequestSchemas,
  markPublicOperations,
  nullableReferences,
  operationsOf,
} from './document-passes.openapi.js';

/** Where the browsable documentation and the raw document are served. */
export const DOCS_PATH = 'api/docs';
export const DOCS_JSON_PATH = 'api/docs-json';

const DESCRIPTION = `Inventory of network and IT assets, the relations between them and mapping diagrams.

Every route but the health probes, login and this documentation needs
\`Authorization: Bearer <token>\`, where the token is a session token (a JWT from
\`POST /api/auth/login\`) or an API key (\`amk_...\`). Roles: \`viewer\` < \`editor\` < \`admin\`,
each including the one below it.

Every answer with a status of 400 or more is \`{"error": "<sentence>"}\` and nothing else; an
unexpected failure is a 500 naming a request id. Unknown body and query properties are refused
with a 400. Bodies are \`application/json\`, at most 1 MiB (ingestion: \`INGEST_MAX_BYTES\`, and
also Nmap or Nessus XML and CSV, gzipped or not).

The API reference, \`docs/api.md\` in the service's repository, explains every route, field rule
and error in prose, with the service's choices where a client could wonder.`;

const TAGS: [name: string, description: string][] = [
  ['auth', 'Log in, the signed-in user, its password'],
  ['api-keys', "The signed-in user's API keys, for CI jobs"],
  ['users', 'User management (admin)'],
  ['health', 'Probes (public)'],
  ['assets', 'The inventory'],
  ['findings', "Vulnerabilities' lives on assets: status, triage, due dates, counts over time"],
  ['relations', 'Links between assets'],
  ['graph', 'Walks along relations: neighbourhoods, paths, reachability'],
  ['diagrams', 'Mapping diagrams: private to their owner, or public'],
  ['ingestion', 'Bulk writes from scanners'],
  ['changes', 'Change history: who changed what, when, through which request or run'],
];

/**
 * Headers written here once rather than on each route's responses: X-Request-Id on every
 * answer, and the rate-limit headers on every success of an authenticated route (it got past
 * authentication, so the rate limiter counted it).
 */
function addCommonHeaders(document: OpenAPIObject): OpenAPIObject {
  for (const operation of operationsOf(document)) {
    const limited = operation.security?.some((requirement) => BEARER_AUTH in requirement);
    for (const [status, response] of Object.entries(operation.responses)) {
      const answer = response as ResponseObject;
      const rateLimit = limited && status.startsWith('2') ? RATE_LIMIT_HEADERS : {};
      answer.headers = { ...REQUEST_ID_HEADER, ...rateLimit, ...answer.headers };
    }
  }
  return document;
}

type DocumentPass = (document: OpenAPIObject) => OpenAPIObject;

/** What the document built from the decorators goes through, in order, `complete` first. */
const passes = (complete: DocumentPass): DocumentPass[] => [
  complete,
  addCommonHeaders,
  markPublicOperations,
  nullableReferences,
  closeRequestSchemas,
];

/**
 * Serves the OpenAPI document of every route, built from the controllers' decorators: browsable
 * at /api/docs and as JSON at /api/docs-json. Both are registered on Fastify directly, outside
 * Nest's router, so AccessGuard does not apply: they are public (CONTRACT section 3). Call it
 * once the global prefix is set; the document is built on its first request. `complete` adds
 * what the decorators cannot say (routes outside Nest's router, bodies other than JSON).
 */
export function setupOpenApi(
  app: NestFastifyApplication,
  version: string,
  complete: (document: OpenAPIObject) => OpenAPIObject,
): void {
  const builder = new DocumentBuilder()
    .setTitle('Asset Map')
    .setDescription(DESCRIPTION)
    .setVersion(version)
    // Relative: the paths already start with /api, on whichever origin serves this document.
    .addServer('/', 'This service')
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT or API key',
        description:
          'session token (JWT) from POST /api/auth/login, or an API key (amk_...) from POST /api/auth/api-keys',
      },
      BEARER_AUTH,
    );
  for (const [name, description] of TAGS) builder.addTag(name, description);
  const config = builder.build();
  SwaggerModule.setup(
    DOCS_PATH,
    app,
    () =>
      passes(complete).reduce(
        (document, pass) => pass(document),
        SwaggerModule.createDocument(app, config),
      ),
    {
      jsonDocumentUrl: DOCS_JSON_PATH,
      raw: ['json'],
      customSiteTitle: 'Asset Map API',
    },
  );
}
