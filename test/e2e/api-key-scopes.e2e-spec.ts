import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { ApiKey } from '../../src/database/entities/api-key.entity.js';
import { sendScannerBody } from '../support/ingest-helpers.js';
import { expectErrorBody, TestApp, type ApiResponse } from '../support/test-app.js';

const ALL_SCOPES = ['read', 'write', 'ingest', 'admin'];
const INGEST = '/api/integrations/ingest';

/** A CSV asset table, ingested as a scanner's output with its options in the query. */
const CSV = 'id,name,ip\ncsv-1,csv-1,10.9.0.1\n';

function expectRefused(response: ApiResponse, pattern: RegExp): void {
  expect({ status: response.status, body: response.body }).toEqual({
    status: 403,
    body: { error: expect.stringMatching(pattern) },
  });
}

describe('scoped API keys: scopes, sources, allowedCidrs, lastUsedIp', () => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await TestApp.start();
    admin = await t.login();
  });
  afterAll(async () => {
    await t.close();
  });

  async function keyFor(token: string, body: Record<string, unknown>) {
    const response = await t.request('POST', '/api/auth/api-keys', {
      token,
      body: { name: 'scoped', ...body },
    });
    expect(response.status).toBe(201);
    return response.body as { id: string; key: string; scopes: string[] };
  }

  const ingestBody = (source?: string, extra: Record<string, unknown> = {}) => ({
    options: { ...(source === undefined ? {} : { source }), ...extra },
    assets: [{ id: `scoped-${randomUUID()}`, name: 'scoped', ip: '10.9.0.2' }],
  });

  describe('creation', () => {
    it.each([
      ['viewer', ['read']],
      ['editor', ['read', 'write', 'ingest']],
      ['admin', ALL_SCOPES],
    ])("defaults a %s's key to every scope its role allows", async (role, scopes) => {
      const user = role === 'admin' ? { token: admin } : await t.createUser(role);
      expect((await keyFor(user.token, {})).scopes).toEqual(scopes);
    });

    const invalid: [string, string, Record<string, unknown>][] = [
      ['an empty scopes list', 'scopes', { scopes: [] }],
      ['a null scopes', 'scopes', { scopes: null }],
      ['scopes that is not a list', 'scopes', { scopes: 'read' }],
      ['an unknown scope', 'scopes\\[1\\]', { scopes: ['read', 'root'] }],
      ['a scope twice', 'scopes\\[1\\]', { scopes: ['read', 'read'] }],
      ['an empty sources list', 'sources', { sources: [] }],
      ['an empty source name', 'sources\\[0\\]', { sources: [''] }],
      ['a source of 101 characters', 'sources\\[1\\]', { sources: ['ok', 's'.repeat(101)] }],
      ['a source that is not a string', 'sources\\[0\\]', { sources: [7] }],
      ['101 sources', 'sources', { sources: Array.from({ length: 101 }, (_, i) => `s${i}`) }],
      ['a prefix that is no address', 'allowedCidrs\\[0\\]', { allowedCidrs: ['10.0.0/8'] }],
      ['a prefix too long', 'allowedCidrs\\[0\\]', { allowedCidrs: ['10.0.0.0/33'] }],
      ['an IPv6 prefix too long', 'allowedCidrs\\[1\\]', { allowedCidrs: ['::1', '::/129'] }],
      ['a host name', 'allowedCidrs\\[0\\]', { allowedCidrs: ['localhost'] }],
      ['an empty allowedCidrs list', 'allowedCidrs', { allowedCidrs: [] }],
    ];
    it.each(invalid)(
      'refuses %s (400 naming the field), creating nothing',
      async (_l, field, body) => {
        const before = await t.request('GET', '/api/auth/api-keys', { token: admin });
        const response = await t.request('POST', '/api/auth/api-keys', {
          token: admin,
          body: { name: 'bad', ...body },
        });
        expect(response.status).toBe(400);
        expectErrorBody(response, new RegExp(`^${field}`));
        expect((await t.request('GET', '/api/auth/api-keys', { token: admin })).body).toEqual(
          before.body,
        );
      },
    );

    it("refuses a scope beyond the user's role (400), naming it", async () => {
      const editor = await t.createUser('editor');
      const response = await t.request('POST', '/api/auth/api-keys', {
        token: editor.token,
        body: { name: 'too wide', scopes: ['ingest', 'admin'] },
      });
      expect(response.status).toBe(400);
      expectErrorBody(response, /^scopes\[1\] 'admin' is beyond what the editor role allows/);
    });

    it('keeps sources and prefixes as given, an address alone and IPv6 included', async () => {
      const created = await keyFor(admin, {
        scopes: ['ingest'],
        sources: ['nmap-dmz', 'trivy'],
        allowedCidrs: ['127.0.0.0/8', '::1', '2001:db8::/32'],
      });
      const listed = await t.request('GET', '/api/auth/api-keys', { token: admin });
      expect(listed.body.find((k: any) => k.id === created.id)).toMatchObject({
        scopes: ['ingest'],
        sources: ['nmap-dmz', 'trivy'],
        allowedCidrs: ['127.0.0.0/8', '::1', '2001:db8::/32'],
      });
    });
  });

  describe('scopes', () => {
    it("a key without 'write' reads but does not write", async () => {
      const editor = await t.createUser('editor');
      const { key } = await keyFor(editor.token, { scopes: ['read'] });
      expect((await t.request('GET', '/api/assets', { token: key })).status).toBe(200);
      const refused = await t.request('POST', '/api/assets', {
        token: key,
        body: { name: 'nope', type: 'server' },
      });
      expectRefused(refused, /API key lacks the scope 'write'/);
      const asSession = await t.request('POST', '/api/assets', {
        token: editor.token,
        body: { name: `ok-${randomUUID()}`, type: 'server' },
      });
      expect(asSession.status).toBe(201);
    });

    it('an ingest-only key ingests (dry runs too) and reads runs, but reads no asset', async () => {
      const editor = await t.createUser('editor');
      const { key } = await keyFor(editor.token, { scopes: ['ingest'] });
      const ingested = await t.request('POST', INGEST, { token: key, body: ingestBody('feed') });
      expect(ingested.status).toBe(200);
      const dry = await t.request('POST', INGEST, {
        token: key,
        body: ingestBody('feed', { dryRun: true }),
      });
      expect(dry.status).toBe(200);
      const run = await t.request('GET', `/api/integrations/runs/${ingested.body.runId}`, {
        token: key,
      });
      expect(run.status).toBe(200);
      expect((await t.request('GET', '/api/integrations/runs', { token: key })).status).toBe(200);
      expectRefused(
        await t.request('GET', '/api/assets', { token: key }),
        /lacks the scope 'read'/,
      );
      // GET /api/auth/me needs no scope.
      expect((await t.request('GET', '/api/auth/me', { token: key })).status).toBe(200);
    });

    it("a key without 'ingest' does not ingest, and one with neither 'read' nor 'ingest' reads no run", async () => {
      const editor = await t.createUser('editor');
      const { key } = await keyFor(editor.token, { scopes: ['write'] });
      expectRefused(
        await t.request('POST', INGEST, { token: key, body: ingestBody('feed') }),
        /API key lacks the scope 'ingest'/,
      );
      expectRefused(
        await t.request('GET', '/api/integrations/runs', { token: key }),
        /API key lacks the scope 'read' or 'ingest'/,
      );
    });

    it("an admin's key without 'admin' is refused what only admins may do", async () => {
      const { key } = await keyFor(admin, { scopes: ['read', 'write', 'ingest'] });
      expectRefused(
        await t.request('GET', '/api/users', { token: key }),
        /API key lacks the scope 'admin'/,
      );
      expectRefused(
        await t.request('GET', '/api/changes', { token: key }),
        /API key lacks the scope 'admin'/,
      );
      expectRefused(
        await t.request('POST', INGEST, {
          token: key,
          body: { options: { mode: 'replace' }, assets: [] },
        }),
        /replace mode needs the admin scope: API key lacks the scope 'admin'/,
      );
      // Another user's private diagram is out of its reach, as for an editor.
      const editor = await t.createUser('editor');
      const diagram = await t.request('POST', '/api/diagrams', {
        token: editor.token,
        body: { name: 'private', content: {} },
      });
      expect(diagram.status).toBe(201);
      const asAdmin = await t.request('GET', `/api/diagrams/${diagram.body.id}`, { token: admin });
      expect(asAdmin.status).toBe(200);
      const asKey = await t.request('GET', `/api/diagrams/${diagram.body.id}`, { token: key });
      expect(asKey.status).toBe(404);
      // With the scope, the same admin's key may.
      const { key: full } = await keyFor(admin, {});
      expect((await t.request('GET', '/api/users', { token: full })).status).toBe(200);
    });

    it("is bounded by the user's current role: a demoted editor's write key stops writing", async () => {
      const editor = await t.createUser('editor');
      const { key } = await keyFor(editor.token, { scopes: ['read', 'write'] });
      const body = () => ({ name: `bound-${randomUUID()}`, type: 'server' });
      expect((await t.request('POST', '/api/assets', { token: key, body: body() })).status).toBe(
        201,
      );
      const demoted = await t.request('PUT', `/api/users/${editor.id}`, {
        token: admin,
        body: { role: 'viewer' },
      });
      expect(demoted.status).toBe(200);
      const refused = await t.request('POST', '/api/assets', { token: key, body: body() });
      expect(refused.status).toBe(403);
      expectErrorBody(refused, /editor role/);
      // The key still shows what was granted.
      const listed = await t.request('GET', '/api/auth/api-keys', { token: key });
      expect(listed.body[0].scopes).toEqual(['read', 'write']);
    });

    it('and a promotion gives a key no scope it was not granted', async () => {
      const viewer = await t.createUser('viewer');
      const { key } = await keyFor(viewer.token, {});
      await t.request('PUT', `/api/users/${viewer.id}`, { token: admin, body: { role: 'admin' } });
      expectRefused(
        await t.request('GET', '/api/users', { token: key }),
        /lacks the scope 'admin'/,
      );
      await t.request('PUT', `/api/users/${viewer.id}`, { token: admin, body: { role: 'viewer' } });
    });

    it('a key narrower than its role may not make keys or change the password', async () => {
      const editor = await t.createUser('editor');
      const narrow = [
        (await keyFor(editor.token, { scopes: ['read', 'write'] })).key,
        (await keyFor(editor.token, { sources: ['feed'] })).key,
        (await keyFor(editor.token, { allowedCidrs: ['127.0.0.1'] })).key,
      ];
      const { id: target } = await keyFor(editor.token, {});
      for (const key of narrow) {
        for (const [method, path, body] of [
          ['POST', '/api/auth/api-keys', { name: 'wider' }],
          ['POST', `/api/auth/api-keys/${target}/rotate`, {}],
          ['DELETE', `/api/auth/api-keys/${target}`, undefined],
          [
            'POST',
            '/api/auth/password',
            { currentPassword: editor.password, newPassword: 'x'.repeat(12) },
          ],
        ] as const) {
          expectRefused(
            await t.request(method, path, { token: key, body }),
            /^API key is restricted/,
          );
        }
      }
      const unrestricted = (await keyFor(editor.token, {})).key;
      const made = await t.request('POST', '/api/auth/api-keys', {
        token: unrestricted,
        body: { name: 'made by a key' },
      });
      expect(made.status).toBe(201);
    });
  });

  describe('sources', () => {
    it('a key bound to sources ingests only as one of them, a dry run and a scanner body included', async () => {
      const editor = await t.createUser('editor');
      const { key } = await keyFor(editor.token, { sources: ['nmap-dmz', 'csv-feed'] });
      expect(
        (await t.request('POST', INGEST, { token: key, body: ingestBody('nmap-dmz') })).status,
      ).toBe(200);
      expectRefused(
        await t.request('POST', INGEST, { token: key, body: ingestBody('other') }),
        /API key may not ingest as the source 'other': it is bound to the sources 'nmap-dmz', 'csv-feed'/,
      );
      expectRefused(
        await t.request('POST', INGEST, { token: key, body: ingestBody(undefined) }),
        /API key is bound to the sources 'nmap-dmz', 'csv-feed': the ingestion must name one of them/,
      );
      expectRefused(
        await t.request('POST', INGEST, {
          token: key,
          body: ingestBody('other', { dryRun: true }),
        }),
        /may not ingest as the source 'other'/,
      );
      const csvOk = await sendScannerBody(t, key, CSV, 'text/csv', '?source=csv-feed');
      expect(csvOk.status).toBe(200);
      expectRefused(
        await sendScannerBody(t, key, CSV, 'text/csv', '?source=nmap-dmz2'),
        /may not ingest as the source 'nmap-dmz2'/,
      );
      expectRefused(await sendScannerBody(t, key, CSV, 'text/csv'), /must name one of them/);
    });

    it('writes nothing when it refuses', async () => {
      const editor = await t.createUser('editor');
      const { key } = await keyFor(editor.token, { sources: ['only'] });
      const body = ingestBody('not-this');
      expectRefused(await t.request('POST', INGEST, { token: key, body }), /source 'not-this'/);
      const asset = await t.request('GET', `/api/assets/${body.assets[0].id}`, { token: admin });
      expect(asset.status).toBe(404);
    });
  });

  describe('allowedCidrs', () => {
    it('lets a key in from an address inside a prefix, and refuses it from outside', async () => {
      const editor = await t.createUser('editor');
      const inside = await keyFor(editor.token, { allowedCidrs: ['192.0.2.0/24', '127.0.0.0/8'] });
      expect((await t.request('GET', '/api/assets', { token: inside.key })).status).toBe(200);
      const outside = await keyFor(editor.token, { allowedCidrs: ['192.0.2.0/24', '::1'] });
      for (const [method, path] of [
        ['GET', '/api/assets'],
        ['GET', '/api/auth/me'],
        ['POST', INGEST],
      ]) {
        expectRefused(
          await t.request(method, path, {
            token: outside.key,
            body: method === 'POST' ? ingestBody('f') : undefined,
          }),
          /API key may not be used from 127\.0\.0\.1: the address is outside its allowedCidrs/,
        );
      }
    });
  });

  describe('lastUsedIp', () => {
    it('is null until the key is used, then the address of that use', async () => {
      const user = await t.createUser('viewer');
      const created = await keyFor(user.token, {});
      const find = async () =>
        (await t.request('GET', '/api/auth/api-keys', { token: user.token })).body.find(
          (k: any) => k.id === created.id,
        );
      expect((await find()).lastUsedIp).toBeNull();
      expect((await t.request('GET', '/api/auth/me', { token: created.key })).status).toBe(200);
      expect((await find()).lastUsedIp).toBe('127.0.0.1');
      // Written with lastUsedAt: a use a minute later writes it again.
      await t.dataSource
        .getRepository(ApiKey)
        .update(created.id, { lastUsedAt: new Date(Date.now() - 70_000), lastUsedIp: '::1' });
      expect((await t.request('GET', '/api/auth/me', { token: created.key })).status).toBe(200);
      expect((await find()).lastUsedIp).toBe('127.0.0.1');
    });
  });
});

/**
 * The probes' viewpoint: from the served route list, every authenticated route, called with a
 * key lacking each scope it needs, is a 403 naming that scope, before anything else is checked.
 */
describe('every route refuses a key without its scope', () => {
  let t: TestApp;
  let admin: string;
  const keys = new Map<string, string>();

  beforeAll(async () => {
    t = await TestApp.start();
    admin = await t.login();
  });
  afterAll(async () => {
    await t.close();
  });

  /** The scopes a route needs: each entry a set of which one is needed; or a full key. */
  function needs(method: string, path: string): string[][] | 'unrestricted' {
    if (path === '/api/auth/me') return [];
    if (
      (method === 'post' && path === '/api/auth/password') ||
      (method !== 'get' && path.startsWith('/api/auth/api-keys'))
    ) {
      return 'unrestricted';
    }
    if (path.startsWith('/api/integrations/runs')) return [['read', 'ingest']];
    if (method === 'post' && path === INGEST) return [['ingest']];
    const adminOnly =
      path.startsWith('/api/users') ||
      path === '/api/changes' ||
      path.startsWith('/api/webhooks') ||
      (method === 'put' && path.startsWith('/api/sources/'));
    if (method === 'get') return adminOnly ? [['read'], ['admin']] : [['read']];
    return adminOnly ? [['admin']] : [['write']];
  }

  /** An admin's key with every scope but `without`. */
  async function keyWithout(without: string[]): Promise<string> {
    const scopes = ALL_SCOPES.filter((scope) => !without.includes(scope));
    const name = scopes.join(',');
    if (!keys.has(name)) {
      const created = await t.request('POST', '/api/auth/api-keys', {
        token: admin,
        body: { name, scopes },
      });
      expect(created.status).toBe(201);
      keys.set(name, created.body.key);
    }
    return keys.get(name)!;
  }

  it('covers every authenticated operation of the OpenAPI document', async () => {
    const document = await t.request('GET', '/api/docs-json');
    expect(document.status).toBe(200);
    const operations = Object.entries(
      document.body.paths as Record<string, Record<string, any>>,
    ).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([, operation]) => operation.security?.length)
        .map(([method]) => ({ method, path })),
    );
    expect(operations.length).toBeGreaterThan(30);
    const checked: string[] = [];
    for (const { method, path } of operations) {
      const url = path.replace(/\{[^}]+\}/g, () => randomUUID());
      const body = method === 'get' || method === 'delete' ? undefined : {};
      const rule = needs(method, path);
      const label = `${method.toUpperCase()} ${path}`;
      if (rule === 'unrestricted') {
        const response = await t.request(method.toUpperCase(), url, {
          token: await keyWithout(['admin']),
          body,
        });
        expect({ label, status: response.status, error: response.body?.error }).toEqual({
          label,
          status: 403,
          error: expect.stringMatching(/^API key is restricted/),
        });
        checked.push(label);
        continue;
      }
      for (const anyOf of rule) {
        const response = await t.request(method.toUpperCase(), url, {
          token: await keyWithout(anyOf),
          body,
        });
        const named = anyOf.map((scope) => `'${scope}'`).join(' or ');
        expect({ label, status: response.status, error: response.body?.error }).toEqual({
          label,
          status: 403,
          error: `API key lacks the scope ${named}`,
        });
        checked.push(label);
      }
      if (rule.length === 0) {
        const response = await t.request(method.toUpperCase(), url, {
          token: await keyWithout(['read', 'write', 'ingest']),
          body,
        });
        expect({ label, status: response.status }).toEqual({ label, status: 200 });
      }
    }
    expect(checked).toEqual(
      expect.arrayContaining(['POST /api/integrations/ingest', 'GET /api/users']),
    );
  });
});

/** Another service, behind a proxy: the address a key is checked against is the proxy's client's. */
describe('allowedCidrs behind a proxy (TRUST_PROXY)', () => {
  it('takes the client address as TRUST_PROXY says', async () => {
    const proxied = await TestApp.start({ TRUST_PROXY: 'true' });
    try {
      const token = await proxied.login();
      const created = await proxied.request('POST', '/api/auth/api-keys', {
        token,
        body: { name: 'behind a proxy', scopes: ['read'], allowedCidrs: ['198.51.100.0/24'] },
      });
      const { key, id } = created.body;
      const from = (address: string) =>
        proxied.request('GET', '/api/assets', {
          token: key,
          headers: { 'x-forwarded-for': address },
        });
      expect((await from('198.51.100.7')).status).toBe(200);
      expectRefused(await from('203.0.113.9'), /used from 203\.0\.113\.9/);
      expectRefused(await proxied.request('GET', '/api/assets', { token: key }), /127\.0\.0\.1/);
      const listed = await proxied.request('GET', '/api/auth/api-keys', { token });
      expect(listed.body.find((k: any) => k.id === id).lastUsedIp).toBe('198.51.100.7');
    } finally {
      await proxied.close();
    }
  });
});
