import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import { TestApp } from '../support/test-app.js';

interface Route {
  method: string;
  /** Fastify's spelling: `/api/assets/:id`. */
  path: string;
}

type Document = {
  openapi: string;
  servers: { url: string }[];
  paths: Record<string, Record<string, any>>;
  components: { schemas: Record<string, any> };
};

const DOCUMENTED_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const BODY_METHODS = ['POST', 'PUT', 'PATCH'];
/**
 * Actions that take no body: their name says all there is to do (the single sign-on's session
 * is taken with a cookie alone).
 */
const BODILESS = [
  'POST /api/webhooks/:id/ping',
  'POST /api/webhooks/:id/deliveries/:deliveryId/redeliver',
  'POST /api/auth/oidc/session',
];

/** The documentation's own routes: the UI, its assets and the JSON document. */
function isDocsRoute(path: string): boolean {
  return path === '/api/docs' || path.startsWith('/api/docs/') || path === '/api/docs-json';
}

const toOpenApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');
const key = (route: Route) => `${route.method} ${route.path}`;

/**
 * Every method and path registered on Fastify, read from its route tree:
 *
 *     ├── /api/assets (GET, HEAD, POST)
 *     │   └── /:id (GET, HEAD, PUT, DELETE)
 *
 * A node's path is its ancestors' labels and its own, joined; four characters per level.
 */
function registeredRoutes(fastify: FastifyInstance): Route[] {
  const routes: Route[] = [];
  const labels: string[] = [];
  for (const line of fastify.printRoutes({ commonPrefix: false }).split('\n')) {
    if (line.trim() === '') continue;
    const match = /^((?:[│ ] {3})*)[├└]── (.+?)(?: \(([A-Z]+(?:, [A-Z]+)*)\))?$/.exec(line);
    if (!match) throw new Error(`unexpected line in Fastify's route tree: ${line}`);
    labels.length = match[1].length / 4;
    labels.push(match[2]);
    for (const method of match[3]?.split(', ') ?? [])
      routes.push({ method, path: labels.join('') });
  }
  return routes;
}

/**
 * The API routes the document must describe: under /api (not the browser UI's pages and files),
 * no HEAD or OPTIONS, none of the docs' own.
 */
function apiRoutes(fastify: FastifyInstance): Route[] {
  return registeredRoutes(fastify).filter(
    (route) =>
      route.path.startsWith('/api/') &&
      DOCUMENTED_METHODS.includes(route.method) &&
      !isDocsRoute(route.path),
  );
}

/** Registered routes the document leaves out. */
function undocumented(routes: Route[], document: Document): string[] {
  return routes
    .filter((route) => !document.paths[toOpenApiPath(route.path)]?.[route.method.toLowerCase()])
    .map(key);
}

/** Every documented operation, as a method and an OpenAPI path. */
function documentedOperations(
  document: Document,
): { method: string; path: string; operation: any }[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => DOCUMENTED_METHODS.includes(method.toUpperCase()))
      .map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
  );
}

/** Every `$ref` anywhere in the document. */
function references(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(references);
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([name, child]) =>
    name === '$ref' && typeof child === 'string' ? [child] : references(child),
  );
}

describe('OpenAPI document', () => {
  let t: TestApp;
  let fastify: FastifyInstance;
  let document: Document;
  let routes: Route[];

  beforeAll(async () => {
    t = await TestApp.start();
    fastify = t.app.getHttpAdapter().getInstance();
    routes = apiRoutes(fastify);
    const response = await t.request<Document>('GET', '/api/docs-json');
    if (response.status !== 200) throw new Error(`GET /api/docs-json: ${response.status}`);
    document = response.body;
  });
  afterAll(async () => {
    await t.close();
  });

  it('is served as JSON at /api/docs-json without a token, as OpenAPI 3', async () => {
    const response = await t.request('GET', '/api/docs-json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.body.openapi).toMatch(/^3\.\d+\.\d+$/);
    expect(response.body.info).toMatchObject({ title: 'Asset Map', version: t.config.version });
    expect(response.body.components.securitySchemes.bearer).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
  });

  it('stays public whatever credentials come with the request', async () => {
    const response = await t.request('GET', '/api/docs-json', { token: 'not-a-token' });
    expect(response.status).toBe(200);
    expect(response.body.openapi).toMatch(/^3\./);
  });

  it('reads every route from Fastify, as Fastify and Nest know them', () => {
    for (const route of routes) {
      expect([key(route), fastify.hasRoute({ method: route.method, url: route.path })]).toEqual([
        key(route),
        true,
      ]);
    }
    // Every route Nest mapped (logged at start-up) was read from the tree.
    const mapped = t.logger.lines
      .map((line) => /^Mapped \{(.+), (\w+)\}/.exec(line.message))
      .filter((match) => match !== null)
      .map((match) => `${match[2]} ${match[1]}`);
    expect(mapped.length).toBeGreaterThan(20);
    expect(mapped.filter((route) => !routes.map(key).includes(route))).toEqual([]);
    expect(routes.map(key)).toEqual(
      expect.arrayContaining([
        'GET /api/assets',
        'DELETE /api/assets/:id',
        'POST /api/integrations/ingest',
        'GET /api/health/ready',
      ]),
    );
  });

  it('documents every registered route', () => {
    expect(undocumented(routes, document)).toEqual([]);
  });

  it('would report a route missing from the document', () => {
    const paths = Object.entries(document.paths).filter(([path]) => path !== '/api/assets/{id}');
    const partial = { ...document, paths: Object.fromEntries(paths) };
    expect(undocumented(routes, partial).sort()).toEqual([
      'DELETE /api/assets/:id',
      'GET /api/assets/:id',
      'PUT /api/assets/:id',
    ]);
  });

  it('documents no route that does not exist', () => {
    const registered = new Set(
      routes.map((route) => `${route.method} ${toOpenApiPath(route.path)}`),
    );
    const phantom = documentedOperations(document)
      .map(({ method, path }) => `${method} ${path}`)
      .filter((operation) => !registered.has(operation));
    expect(phantom).toEqual([]);
    expect(Object.keys(document.paths).filter(isDocsRoute)).toEqual([]);
  });

  it('gives every operation a summary, a tag and a success response', () => {
    for (const { method, path, operation } of documentedOperations(document)) {
      const name = `${method} ${path}`;
      expect([name, typeof operation.summary]).toEqual([name, 'string']);
      expect([name, operation.tags?.length > 0]).toEqual([name, true]);
      // A route a browser is sent to (the single sign-on's) succeeds with a redirect.
      const success = Object.keys(operation.responses).filter((status) =>
        /^(2\d\d|302)$/.test(status),
      );
      expect([name, success.length > 0]).toEqual([name, true]);
    }
  });

  it('marks exactly the routes that refuse a caller without a token as authenticated', async () => {
    for (const route of routes) {
      const name = key(route);
      const operation = document.paths[toOpenApiPath(route.path)][route.method.toLowerCase()];
      const response = await t.request(route.method, route.path.replace(/:\w+/g, 'x'));
      const secured = (operation.security ?? []).some(
        (requirement: object) => 'bearer' in requirement,
      );
      // The refusal of a missing token, not a public route's own 401 (a sign-in that failed).
      if (response.status === 401 && /^Not authenticated/.test(response.body?.error)) {
        expect([name, secured]).toEqual([name, true]);
        expect([name, Object.keys(operation.responses)]).toEqual([
          name,
          expect.arrayContaining(['401', '429']),
        ]);
        expect(operation.responses['429'].headers).toHaveProperty('Retry-After');
      } else {
        // Public, and said so: `security: []`, not a requirement left out.
        expect([name, operation.security]).toEqual([name, []]);
      }
    }
  });

  it('describes every error answer with the {"error"} body', () => {
    for (const { method, path, operation } of documentedOperations(document)) {
      for (const [status, response] of Object.entries<any>(operation.responses)) {
        if (Number(status) < 400) continue;
        expect([
          `${method} ${path} ${status}`,
          response.content?.['application/json']?.schema,
        ]).toEqual([
          `${method} ${path} ${status}`,
          { $ref: '#/components/schemas/ErrorResponseDto' },
        ]);
      }
    }
    expect(document.components.schemas.ErrorResponseDto).toMatchObject({
      properties: { error: { type: 'string' } },
      required: ['error'],
    });
  });

  it('gives every route that takes a body a request body schema with properties', () => {
    const bodyRoutes = routes.filter(
      (route) => BODY_METHODS.includes(route.method) && !BODILESS.includes(key(route)),
    );
    // Those take none, and the document says so.
    for (const route of routes.filter((one) => BODILESS.includes(key(one)))) {
      const operation = document.paths[toOpenApiPath(route.path)][route.method.toLowerCase()];
      expect([key(route), operation.requestBody]).toEqual([key(route), undefined]);
    }
    expect(bodyRoutes.length).toBeGreaterThan(10);
    for (const route of bodyRoutes) {
      const name = key(route);
      const operation = document.paths[toOpenApiPath(route.path)][route.method.toLowerCase()];
      const schema = operation.requestBody?.content?.['application/json']?.schema;
      expect([name, typeof schema?.$ref]).toEqual([name, 'string']);
      const target = document.components.schemas[schema.$ref.replace('#/components/schemas/', '')];
      expect([name, Object.keys(target?.properties ?? {}).length > 0]).toEqual([name, true]);
      expect([name, Object.keys(operation.responses)]).toEqual([
        name,
        expect.arrayContaining(['400', '413', '415']),
      ]);
    }
  });

  it('names the server it is served by', () => {
    expect(document.servers).toEqual([expect.objectContaining({ url: '/' })]);
  });

  it('closes every schema a request body reaches, as the service refuses unknown properties', async () => {
    const closed = Object.entries(document.components.schemas)
      .filter(([, schema]) => schema.additionalProperties === false)
      .map(([name]) => name);
    expect(closed.sort()).toEqual(
      [
        'ChangePasswordDto',
        'CreateApiKeyDto',
        'CreateAssetDto',
        'CreateDiagramDto',
        'CreateRelationDto',
        'CreateUserDto',
        'CreateWebhookDto',
        'IngestAssetDto',
        'IngestOptionsDto',
        'IngestRelationDto',
        'IngestRequestDto',
        'IngestVulnerabilityDto',
        'LoginDto',
        'MergeAssetsDto',
        'RotateApiKeyDto',
        'ServiceInput',
        'TriageFindingDto',
        'UpdateAssetDto',
        'UpdateDiagramDto',
        'UpdateRelationDto',
        'UpdateFeedDto',
        'UpdateUserDto',
        'UpdateWebhookDto',
        'VulnerabilityInput',
        'WebhookFilterDto',
      ].sort(),
    );
    // Those of request bodies only.
    expect(closed.filter((name) => !/Dto$|^(Service|Vulnerability)Input$/.test(name))).toEqual([]);
    const token = await t.login();
    const response = await t.request('POST', '/api/assets', {
      token,
      body: { name: 'a', services: [{ port: 1, protocol: 'tcp', banner: 'x' }] },
    });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatch(/services\[0\]\.banner is not an accepted property/);
  });

  it('writes no nullable without a type beside it, nor a default a client need not send', () => {
    const problems: string[] = [];
    const visit = (value: unknown, at: string): void => {
      if (value === null || typeof value !== 'object') return;
      const schema = value as Record<string, unknown>;
      if (schema.nullable === true && schema.type === undefined) problems.push(`${at}: nullable`);
      for (const [name, child] of Object.entries(schema)) {
        if (name !== 'example' && name !== 'examples') visit(child, `${at}/${name}`);
      }
    };
    visit(document, '#');
    expect(problems).toEqual([]);
    // openapi-typescript makes a property with a default required.
    const options = document.components.schemas.IngestOptionsDto.properties;
    expect(Object.values(options).filter((option: any) => 'default' in option)).toEqual([]);
    expect(document.components.schemas.RunResponse.properties.stats).toEqual({
      description: expect.any(String),
      oneOf: [
        { $ref: '#/components/schemas/IngestStats' },
        { type: 'object', nullable: true, enum: [null] },
      ],
    });
  });

  it('claims no format the service does not hold its input to', () => {
    // admin@localhost has no dotted domain, which the email format requires.
    for (const dto of ['LoginDto', 'CreateUserDto']) {
      expect(document.components.schemas[dto].properties.email.format).toBeUndefined();
    }
    for (const dto of ['CreateAssetDto', 'UpdateAssetDto', 'IngestAssetDto']) {
      const ip = document.components.schemas[dto].properties.ip;
      expect([dto, ip]).toEqual([dto, expect.objectContaining({ maxLength: 45, nullable: true })]);
      const pattern = new RegExp(ip.pattern, 'u');
      for (const good of ['10.0.0.1', '2001:db8::1', 'fe80::1%eth0', '::ffff:10.0.0.1']) {
        expect([good, pattern.test(good)]).toEqual([good, true]);
      }
      for (const bad of ['10.0.0.256', 'router.local', '1::2::3', '']) {
        expect([bad, pattern.test(bad)]).toEqual([bad, false]);
      }
    }
  });

  it('resolves every schema reference', () => {
    const missing = references(document)
      .map((reference) => reference.replace('#/components/schemas/', ''))
      .filter((name) => !document.components.schemas[name]);
    expect(missing).toEqual([]);
  });

  it('documents query parameters, path parameters and response headers', () => {
    const assets = document.paths['/api/assets'].get;
    expect(assets.parameters.map((parameter: any) => [parameter.name, parameter.in])).toEqual(
      expect.arrayContaining([
        ['limit', 'query'],
        ['offset', 'query'],
        ['search', 'query'],
        ['type', 'query'],
        ['site', 'query'],
        ['sort', 'query'],
        ['port', 'query'],
        ['service', 'query'],
        ['tag', 'query'],
      ]),
    );
    // Repeated for several tags: an array, one value per parameter.
    expect(assets.parameters.find((parameter: any) => parameter.name === 'tag')).toMatchObject({
      required: false,
      schema: { type: 'array', items: { type: 'string' }, maxItems: 32 },
    });
    const port = assets.parameters.find((parameter: any) => parameter.name === 'port');
    expect(port).toMatchObject({
      required: false,
      schema: { type: 'integer', minimum: 1, maximum: 65535 },
    });
    const limit = assets.parameters.find((parameter: any) => parameter.name === 'limit');
    expect(limit.schema).toMatchObject({
      type: 'integer',
      minimum: 1,
      maximum: 1000,
      default: 100,
    });
    expect(document.paths['/api/assets/{id}'].get.parameters).toEqual([
      expect.objectContaining({ name: 'id', in: 'path', required: true }),
    ]);
    for (const path of ['/api/relations', '/api/diagrams']) {
      expect(document.paths[path].get.responses['200'].headers).toHaveProperty('X-Total-Count');
    }
    expect(document.paths['/api/assets'].get.responses['200'].headers).toHaveProperty(
      'X-RateLimit-Remaining',
    );
    // Every answer, error or not, carries X-Request-Id.
    for (const pathItem of Object.values<Record<string, any>>(document.paths)) {
      for (const operation of Object.values<any>(pathItem)) {
        for (const response of Object.values<any>(operation.responses)) {
          expect(response.headers).toHaveProperty('X-Request-Id');
        }
      }
    }
  });

  it('describes the answers field by field, null where a field may be null', () => {
    const asset = document.components.schemas.AssetResponse;
    expect(Object.keys(asset.properties).sort()).toEqual(
      [
        'id',
        'name',
        'ip',
        'addresses',
        'macAddresses',
        'hostnames',
        'tags',
        'type',
        'vendor',
        'model',
        'risk_score',
        'site',
        'os_version',
        'source',
        'vulnerabilities',
        'services',
        'origin',
        'sources',
        'firstSeenAt',
        'lastSeenAt',
        'createdAt',
        'updatedAt',
      ].sort(),
    );
    expect(asset.properties.ip).toMatchObject({ type: 'string', nullable: true });
    expect(asset.properties.origin).toMatchObject({
      allOf: [{ $ref: '#/components/schemas/AssetOrigin' }],
    });
    expect(document.components.schemas.AssetOrigin.enum).toEqual(['manual', 'ingest']);
    expect(asset.properties.sources).toMatchObject({ type: 'array', items: { type: 'string' } });
    for (const list of ['addresses', 'macAddresses', 'hostnames', 'tags'])
      expect(asset.properties[list]).toMatchObject({ type: 'array', items: { type: 'string' } });
    for (const sighting of ['firstSeenAt', 'lastSeenAt']) {
      expect(asset.properties[sighting]).toMatchObject({
        type: 'string',
        format: 'date-time',
        nullable: true,
      });
    }
    expect(asset.required).toEqual(
      expect.arrayContaining(['origin', 'sources', 'firstSeenAt', 'lastSeenAt']),
    );
    const sourceFilter = document.paths['/api/assets'].get.parameters.find(
      (parameter: { name: string }) => parameter.name === 'source',
    );
    expect(sourceFilter).toMatchObject({
      in: 'query',
      required: false,
      schema: { type: 'string', minLength: 1, maxLength: 100 },
    });
    expect(asset.properties.vulnerabilities).toMatchObject({
      type: 'array',
      items: { $ref: '#/components/schemas/VulnerabilityResponse' },
    });
    expect(asset.properties.services).toMatchObject({
      type: 'array',
      items: { $ref: '#/components/schemas/ServiceResponse' },
    });
    const service = document.components.schemas.ServiceResponse;
    expect(service.properties.version).toMatchObject({ type: 'string', nullable: true });
    expect(document.components.schemas.ServiceProtocol.enum).toEqual(['tcp', 'udp', 'sctp']);
    expect(document.components.schemas.CreateAssetDto.properties.services).toMatchObject({
      type: 'array',
      items: { $ref: '#/components/schemas/ServiceInput' },
    });
    expect(document.components.schemas.ServiceInput.properties.port).toMatchObject({
      type: 'integer',
      minimum: 1,
      maximum: 65535,
    });
    expect(document.components.schemas.ServiceInput.required).toEqual(['port', 'protocol']);
    expect(document.paths['/api/assets'].get.responses['200'].content).toEqual({
      'application/json': { schema: { $ref: '#/components/schemas/AssetListResponse' } },
    });
    expect(document.paths['/api/relations'].get.responses['200'].content).toEqual({
      'application/json': {
        schema: { type: 'array', items: { $ref: '#/components/schemas/RelationResponse' } },
      },
    });
  });

  it('documents the ingestion body, which the hand-written validator still checks', async () => {
    const body = document.paths['/api/integrations/ingest'].post.requestBody;
    expect(body.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/IngestRequestDto',
    });
    const { schemas } = document.components;
    expect(Object.keys(schemas.IngestRequestDto.properties).sort()).toEqual([
      'assets',
      'options',
      'relations',
    ]);
    expect(schemas.IngestMode.enum).toEqual(['merge', 'append', 'replace']);
    // The scanner formats: a string body each, their options in the query.
    expect(Object.keys(body.content).sort()).toEqual([
      'application/json',
      'application/x-ndjson',
      'application/xml',
      'text/csv',
      'text/xml',
    ]);
    expect(body.content['text/csv'].schema.type).toBe('string');
    expect(Object.keys(body.content['application/xml'].examples)).toEqual([
      'nmap',
      'nessus',
      'greenbone',
      'masscan',
    ]);
    const operation = document.paths['/api/integrations/ingest'].post;
    expect(
      operation.parameters
        .filter((parameter: any) => parameter.in === 'query')
        .map((parameter: any) => parameter.name)
        .sort(),
    ).toEqual([
      'deleteStale',
      'dryRun',
      'format',
      'matchBy',
      'maxDeletions',
      'maxFixes',
      'mode',
      'site',
      'source',
    ]);
    expect(
      operation.parameters.find((parameter: any) => parameter.name === 'format').schema.enum,
    ).toEqual(['nmap', 'nessus', 'csv', 'greenbone', 'masscan', 'nuclei', 'trivy']);
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['413', '415']));
    expect(schemas.IngestAssetDto.properties.vulnerabilities.items).toEqual({
      $ref: '#/components/schemas/IngestVulnerabilityDto',
    });
    expect(schemas.IngestAssetDto.properties.services.items).toEqual({
      $ref: '#/components/schemas/ServiceInput',
    });

    // Still `unknown` to the ValidationPipe: the message is parseIngestPayload's.
    const token = await t.login();
    const response = await t.request('POST', '/api/integrations/ingest', {
      token,
      body: { assets: [{ name: 'a', vulnerabilities: [{ id: 'CVE-1', score: 11 }] }] },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: 'assets[0].vulnerabilities[0].score must be from 0 to 10',
    });
  });

  it('serves the browsable documentation at /api/docs without a token, with its assets', async () => {
    const page = await fetch(`${t.baseUrl}/api/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]);
    expect(assets).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/swagger-ui-bundle\.js$/),
        expect.stringMatching(/swagger-ui-init\.js$/),
        expect.stringMatching(/swagger-ui\.css$/),
      ]),
    );
    for (const asset of assets) {
      const url = new URL(asset, `${t.baseUrl}/api/docs`);
      const response = await fetch(url);
      expect([url.pathname, response.status]).toEqual([url.pathname, 200]);
      await response.arrayBuffer();
    }
    const init = await (await fetch(`${t.baseUrl}/api/docs/swagger-ui-init.js`)).text();
    expect(init).toContain('"/api/assets/{id}"');
  });
});
