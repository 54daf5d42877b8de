import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { TestApp } from '../support/test-app.js';

// ajv-formats is CommonJS: its function is the default export's own default.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

type Document = {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, object> };
};

interface Operation {
  parameters?: { name: string; in: string; required?: boolean }[];
  responses: Record<string, { content?: Record<string, { schema: object }> }>;
}

/** One request to a GET route: its path parameters and its query. */
interface Call {
  path?: Record<string, string>;
  query?: Record<string, string>;
}

/** The ids the seeded store holds, for the routes' parameters. */
type Seed = Record<
  | 'manual'
  | 'bare'
  | 'ingested'
  | 'relation'
  | 'diagram'
  | 'run'
  | 'rejectedRun'
  | 'acceptedFinding'
  | 'fixedFinding'
  | 'webhook'
  | 'service',
  string
>;

/**
 * The requests made to each GET path that takes parameters; a path not listed is called once
 * without any. A path with a required parameter that nothing here fills fails the test.
 */
const CALLS: Record<string, (seed: Seed) => Call[]> = {
  '/api/assets': (): Call[] => [
    {},
    { query: { search: 'fw', port: '443' } },
    { query: { sort: '-ip' } },
  ],
  '/api/assets/export': (): Call[] => [{}, { query: { format: 'ndjson', sort: '-ip' } }],
  '/api/findings/export': (): Call[] => [{}, { query: { format: 'ndjson', status: 'open' } }],
  '/api/assets/{id}': (seed) =>
    [seed.manual, seed.bare, seed.ingested].map((id) => ({ path: { id } })),
  '/api/assets/{id}/changes': (seed) => [
    { path: { id: seed.manual } },
    { path: { id: seed.ingested } },
  ],
  '/api/assets/{id}/graph': (seed) => [{ path: { id: seed.ingested }, query: { depth: '2' } }],
  '/api/assets/{id}/reachable': () => [{ path: { id: 'web-1' }, query: { port: '443' } }],
  '/api/graph/path': (seed) => [{ query: { from: seed.manual, to: 'web-1' } }],
  '/api/relations/{id}': (seed) => [{ path: { id: seed.relation } }],
  '/api/diagrams/{id}': (seed) => [{ path: { id: seed.diagram } }],
  '/api/integrations/runs/{id}': (seed) =>
    [seed.run, seed.rejectedRun].map((id) => ({ path: { id } })),
  '/api/changes': () => [{}, { query: { objectType: 'asset', objectId: 'fw-1' } }],
  '/api/users/{id}/api-keys': (seed) => [{ path: { id: seed.service } }],
  '/api/findings': (): Call[] => [
    {},
    { query: { status: 'open,accepted', severity: 'critical,none', sort: '-dueAt' } },
    { query: { status: 'fixed', overdue: 'false', minScore: '5', limit: '1' } },
    { query: { source: 'nmap-dmz', assetId: 'fw-1', vulnId: 'CVE-0000-0001' } },
  ],
  '/api/findings/{id}': (seed) =>
    [seed.acceptedFinding, seed.fixedFinding].map((id) => ({ path: { id } })),
  '/api/assets/{id}/findings': (seed) => [
    { path: { id: seed.ingested }, query: { minScore: '5' } },
    { path: { id: seed.manual } },
  ],
  '/api/findings/summary': () => [{}, { query: { site: 'nowhere' } }],
  '/api/webhooks/{id}': (seed) => [{ path: { id: seed.webhook } }],
  '/api/webhooks/{id}/deliveries': (seed) => [
    { path: { id: seed.webhook }, query: { limit: '5' } },
  ],
  '/api/findings/trend': () => [{}, { query: { days: '1', severity: 'critical' } }],
};

/**
 * GET routes a browser is sent to, which answer a redirect rather than JSON (the single
 * sign-on's, tested against a real provider in oidc.e2e-spec.ts): their document says 302.
 */
const BROWSER_REDIRECTS = new Set(['/api/auth/oidc/login', '/api/auth/oidc/callback']);

/**
 * A validator of answers against the document's schemas: ajv in strict mode, with the formats
 * of ajv-formats. OpenAPI 3.0 adds two keywords JSON Schema lacks: `example`, and `components`,
 * where the schemas that `$ref`s name live.
 */
function validatorOf(document: Document): (schema: object) => ValidateFunction {
  const ajv = new Ajv({ strict: true, allErrors: true });
  addFormats(ajv);
  ajv.addKeyword('example');
  ajv.addKeyword('components');
  const compiled = new Map<string, ValidateFunction>();
  return (schema) => {
    const key = JSON.stringify(schema);
    if (!compiled.has(key)) {
      compiled.set(key, ajv.compile({ components: document.components, allOf: [schema] }));
    }
    return compiled.get(key)!;
  };
}

/** The path with its parameters written in, and the query. */
function urlOf(path: string, call: Call): string {
  const url = path.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(call.path?.[name] ?? `{${name}}`),
  );
  const query = new URLSearchParams(call.query).toString();
  return query ? `${url}?${query}` : url;
}

/** What is wrong with the calls for an operation: parameters it requires that they leave out, or ones it does not have. */
function parameterProblems(path: string, operation: Operation, calls: Call[]): string[] {
  const parameters = operation.parameters ?? [];
  return calls.flatMap((call) => {
    const given = [
      ...Object.keys(call.path ?? {}).map((name) => `path ${name}`),
      ...Object.keys(call.query ?? {}).map((name) => `query ${name}`),
    ];
    const missing = parameters
      .filter(
        (parameter) => parameter.required && !given.includes(`${parameter.in} ${parameter.name}`),
      )
      .map(
        (parameter) =>
          `GET ${path}: nothing fills its required ${parameter.in} parameter ${parameter.name}`,
      );
    const unknown = given
      .filter(
        (name) => !parameters.some((parameter) => `${parameter.in} ${parameter.name}` === name),
      )
      .map((name) => `GET ${path}: the test gives ${name}, which it does not document`);
    return [...missing, ...unknown];
  });
}

/** A store with one of everything, every nullable field both set and null somewhere. */
async function seed(t: TestApp, admin: string): Promise<Seed> {
  const ok = async (method: string, path: string, body?: unknown, token = admin) => {
    const response = await t.request(method, path, { token, body });
    if (response.status >= 300) {
      throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(response.body)}`);
    }
    return response.body;
  };
  const editor = await t.createUser('editor');
  const key = await ok('POST', '/api/auth/api-keys', {
    name: 'nightly scan',
    expiresAt: '2099-01-01T00:00:00Z',
  });
  await ok('POST', '/api/auth/api-keys', { name: 'never used' });
  // Used once, so that its lastUsedAt is set.
  await ok('GET', '/api/auth/me', undefined, key.key);

  const manual = await ok('POST', '/api/assets', {
    name: 'core-switch',
    // Left out by the PUT below: fixed.
    vulnerabilities: [{ id: 'CVE-2023-0001', score: 5.3, summary: 'weak cipher' }],
    ip: '10.0.0.1',
    type: 'switch',
    vendor: 'Cisco',
    risk_score: 40,
    services: [
      { port: 443, protocol: 'tcp', name: 'https', product: 'nginx', version: '1.24.0' },
      { port: 53, protocol: 'udp' },
    ],
  });
  const bare = await ok('POST', '/api/assets', { name: 'bare' });
  const body = (ip: string) => ({
    options: { source: 'nmap-dmz' },
    assets: [
      {
        id: 'fw-1',
        name: 'fw-1',
        ip,
        type: 'firewall',
        risk_score: 90,
        vulnerabilities: [
          { id: 'CVE-2024-3400', score: 10, summary: 'PAN-OS RCE', publishedDate: '2024-04-12' },
          { id: 'CVE-0000-0001' },
        ],
        services: [{ port: 443, protocol: 'tcp' }],
      },
      { id: 'web-1', name: 'web-1', ip: '10.0.0.2' },
    ],
    relations: [
      {
        sourceAssetId: 'web-1',
        targetAssetId: 'fw-1',
        type: 'route',
        protocol: 'tcp',
        toPorts: '443,8000-8080',
      },
    ],
  });
  await ok('POST', '/api/integrations/ingest', body('fe80::1%eth0'), editor.token);
  // The same feed again with another ip: a run that updates, recorded field by field.
  const run = await ok('POST', '/api/integrations/ingest', body('2001:db8::1'), key.key);
  // A service account's restricted key, used: no e-mail, every key restriction set.
  const service = await ok('POST', '/api/users', {
    kind: 'service',
    name: 'nightly nmap',
    role: 'editor',
  });
  const serviceKey = await ok('POST', `/api/users/${service.id}/api-keys`, {
    name: 'ci',
    scopes: ['ingest'],
    sources: ['nmap-dmz'],
    allowedCidrs: ['127.0.0.0/8', '::1'],
  });
  await ok('POST', '/api/integrations/ingest', body('2001:db8::1'), serviceKey.key);
  const rejected = await t.request('POST', '/api/integrations/ingest', {
    token: editor.token,
    rawBody: '{"assets": [',
    headers: { 'content-type': 'application/json' },
  });
  if (rejected.status !== 400) throw new Error(`the broken ingestion answered ${rejected.status}`);
  const rejectedRuns = await ok('GET', '/api/integrations/runs?status=rejected');

  const relation = await ok('POST', '/api/relations', {
    sourceAssetId: manual.id,
    targetAssetId: 'fw-1',
    type: 'uplink',
  });
  await ok('PUT', `/api/assets/${manual.id}`, {
    risk_score: 50,
    vendor: null,
    vulnerabilities: [],
  });
  // A finding triaged, so that its triage's fields are set somewhere.
  const [critical] = await ok('GET', '/api/findings?vulnId=CVE-2024-3400');
  await ok('PATCH', `/api/findings/${critical.id}`, {
    status: 'accepted',
    reason: 'behind the VPN until the upgrade',
    acceptedUntil: new Date(Date.now() + 30 * 86_400_000).toISOString(),
  });
  const [fixed] = await ok('GET', '/api/findings?status=fixed');
  const doomed = await ok('POST', '/api/assets', { name: 'doomed' });
  await ok('DELETE', `/api/assets/${doomed.id}`);
  const diagram = await ok('POST', '/api/diagrams', {
    name: 'Paris DC',
    description: 'Core network of the Paris site',
    visibility: 'public',
    content: { nodes: [{ assetId: 'fw-1', x: 10, y: 20 }], edges: [] },
  });
  await ok('POST', '/api/diagrams', { name: 'Scratch' });
  // A webhook on the loopback's discard port, with a delivery queued (its ping).
  const webhook = await ok('POST', '/api/webhooks', {
    url: 'http://127.0.0.1:9/hook',
    events: ['feed.late'],
    filter: { minScore: 9, sources: ['nmap-dmz'], sites: ['paris'] },
  });
  await t.request('POST', `/api/webhooks/${webhook.id}/ping`, { token: admin });
  return {
    manual: manual.id,
    bare: bare.id,
    ingested: 'fw-1',
    relation: relation.id,
    diagram: diagram.id,
    run: run.runId,
    rejectedRun: rejectedRuns[0].id,
    acceptedFinding: critical.id,
    fixedFinding: fixed.id,
    webhook: webhook.id,
    service: service.id,
  };
}

describe('Every GET route answers as the OpenAPI document says', () => {
  let t: TestApp;
  let document: Document;
  let admin: string;
  let ids: Seed;
  let validator: (schema: object) => ValidateFunction;

  beforeAll(async () => {
    t = await TestApp.start({ WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true' });
    const served = await t.request<Document>('GET', '/api/docs-json');
    if (served.status !== 200) throw new Error(`GET /api/docs-json: ${served.status}`);
    document = served.body;
    validator = validatorOf(document);
    admin = await t.login();
    ids = await seed(t, admin);
  });
  afterAll(async () => {
    await t.close();
  });

  /** The schema of the JSON answer the operation documents for `status`. */
  const schemaOf = (operation: Operation, status: number) =>
    operation.responses[String(status)]?.content?.['application/json']?.schema;

  it('fills the parameters of every GET route of the document, and of nothing else', () => {
    const gets = Object.entries(document.paths).filter(([, item]) => item.get);
    expect(gets.length).toBeGreaterThan(15);
    const problems = gets.flatMap(([path, item]) =>
      parameterProblems(path, item.get, CALLS[path]?.(ids) ?? [{}]),
    );
    const stale = Object.keys(CALLS).filter((path) => !document.paths[path]?.get);
    expect([...problems, ...stale.map((path) => `no GET ${path} in the document`)]).toEqual([]);
  });

  it('answers every GET route with real data, each answer valid against its schema', async () => {
    const problems: string[] = [];
    let validated = 0;
    for (const [path, item] of Object.entries(document.paths)) {
      if (!item.get) continue;
      if (BROWSER_REDIRECTS.has(path)) {
        if (!item.get.responses['302']) problems.push(`GET ${path}: no 302 documented`);
        continue;
      }
      for (const call of CALLS[path]?.(ids) ?? [{}]) {
        const url = urlOf(path, call);
        const documented = item.get.responses['200']?.content ?? {};
        if (!('application/json' in documented)) {
          // A file (an export): answered in one of the media types the document gives.
          const file = await fetch(`${t.baseUrl}${url}`, {
            headers: { authorization: `Bearer ${admin}` },
          });
          const type = (file.headers.get('content-type') ?? '').split(';')[0];
          if ((await file.text()) === '' || file.status !== 200 || !(type in documented)) {
            problems.push(`GET ${url}: ${file.status} ${type}, or empty`);
          }
          continue;
        }
        const response = await t.request('GET', url, { token: admin });
        const schema = schemaOf(item.get, response.status);
        if (response.status !== 200 || !schema) {
          problems.push(`GET ${url}: ${response.status} ${JSON.stringify(response.body)}`);
          continue;
        }
        if (Array.isArray(response.body) && response.body.length === 0) {
          problems.push(`GET ${url}: an empty list, which shows nothing of its items' schema`);
        }
        const validate = validator(schema);
        if (!validate(response.body)) {
          problems.push(`GET ${url}: ${JSON.stringify(validate.errors)}`);
        }
        validated++;
      }
    }
    expect(problems).toEqual([]);
    expect(validated).toBeGreaterThan(20);
  });

  it('validates a rejected run, whose mode, options and stats are null', async () => {
    const response = await t.request('GET', `/api/integrations/runs/${ids.rejectedRun}`, {
      token: admin,
    });
    expect(response.body).toMatchObject({
      status: 'rejected',
      mode: null,
      dryRun: null,
      stats: null,
    });
    const validate = validator(schemaOf(document.paths['/api/integrations/runs/{id}'].get, 200)!);
    expect([validate(response.body), validate.errors]).toEqual([true, null]);
  });

  it('refuses answers that break the schema', async () => {
    const asset = (await t.request('GET', `/api/assets/${ids.manual}`, { token: admin })).body;
    const run = (await t.request('GET', `/api/integrations/runs/${ids.run}`, { token: admin }))
      .body;
    const validateAsset = validator(schemaOf(document.paths['/api/assets/{id}'].get, 200)!);
    const validateRun = validator(
      schemaOf(document.paths['/api/integrations/runs/{id}'].get, 200)!,
    );
    expect(validateAsset(asset)).toBe(true);
    expect(validateRun(run)).toBe(true);
    const nameless = { ...asset };
    delete nameless.name;
    for (const broken of [
      nameless,
      { ...asset, ip: 10 },
      { ...asset, createdAt: 'yesterday' },
      { ...asset, services: [{ ...asset.services[0], protocol: 'icmp' }] },
    ]) {
      expect(validateAsset(broken)).toBe(false);
    }
    for (const broken of [
      { ...run, mode: 'upsert' },
      { ...run, stats: { ...run.stats, assetsCreated: -1 } },
      { ...run, stats: 'none' },
      { ...run, id: 'not-a-uuid' },
    ]) {
      expect(validateRun(broken)).toBe(false);
    }
  });
});
