import {
  afterAll,
  afterEach,
  beforeAll,
  beforeEach,
  describe,
  expect,
  it,
  jest,
} from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { WebhooksRepository } from '../../src/database/repositories/webhooks.repository.js';
import { DeliveryDispatcher } from '../../src/events/delivery/delivery-dispatcher.service.js';
import { MetricsServer } from '../../src/metrics/metrics.server.js';
import { WebhookResolver } from '../../src/events/delivery/webhook-resolver.js';
import { TestApp, expectErrorBody } from '../support/test-app.js';
import { describeIfAvailable } from '../support/requirements.js';
import {
  createTestDatabase,
  POSTGRES_SERVER_URL,
  type TestDatabase,
} from '../support/test-database.js';
import { eventually, WebhookReceiver } from '../support/webhook-receiver.js';

const INGEST = '/api/integrations/ingest';

// Every URL below points at the loopback; refusals of other ranges are tested through a stub
// resolver, which the address check asks before any connection is made.
const LOOPBACK_ALLOWED = {
  WEBHOOK_ALLOW_HTTP: 'true',
  WEBHOOK_ALLOW_PRIVATE: 'true',
  WEBHOOK_FIRST_RETRY_MS: '20',
  WEBHOOK_POLL_MS: '20',
};

describe('webhooks', () => {
  let t: TestApp;
  let admin: string;
  let receiver: WebhookReceiver;
  const created: string[] = [];

  /** A webhook to the receiver (or `url`), with its secret. */
  const createWebhook = async (body: Record<string, unknown>) => {
    const response = await t.request('POST', '/api/webhooks', {
      token: admin,
      body: { url: receiver.url, ...body },
    });
    expect(response.status).toBe(201);
    created.push(response.body.id);
    return response.body as { id: string; secret: string } & Record<string, any>;
  };
  const deliveries = async (id: string) => {
    const response = await t.request('GET', `/api/webhooks/${id}/deliveries`, { token: admin });
    expect(response.status).toBe(200);
    return response.body as Record<string, any>[];
  };
  const ingest = (body: unknown) => t.request('POST', INGEST, { token: admin, body });
  const createAsset = async (body: Record<string, unknown>) => {
    const response = await t.request('POST', '/api/assets', { token: admin, body });
    expect(response.status).toBe(201);
    return response.body as Record<string, any>;
  };

  beforeAll(async () => {
    t = await TestApp.start(LOOPBACK_ALLOWED);
    admin = await t.login();
  });
  beforeEach(async () => {
    receiver = await WebhookReceiver.start();
  });
  afterEach(async () => {
    // Each test's webhooks go with it, so that the next one hears only its own.
    for (const id of created.splice(0)) {
      await t.request('DELETE', `/api/webhooks/${id}`, { token: admin });
    }
    await receiver.close();
  });
  afterAll(async () => {
    await t.close();
  });

  describe('routes', () => {
    it('creates a webhook with its secret shown once, lists and reads it without', async () => {
      const webhook = await createWebhook({
        events: ['asset.created', 'finding.opened'],
        filter: { minScore: 7, sites: ['dmz'] },
      });
      expect(webhook).toEqual({
        id: expect.any(String),
        url: receiver.url,
        events: ['asset.created', 'finding.opened'],
        filter: { minScore: 7, sites: ['dmz'] },
        enabled: true,
        disabledReason: null,
        secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      const one = await t.request('GET', `/api/webhooks/${webhook.id}`, { token: admin });
      expect(one.status).toBe(200);
      expect(one.body).not.toHaveProperty('secret');
      expect(one.body.filter).toEqual({ minScore: 7, sites: ['dmz'] });
      const list = await t.request('GET', '/api/webhooks', { token: admin });
      expect(list.body.map((entry: any) => entry.id)).toContain(webhook.id);
      expect(list.body.every((entry: any) => !('secret' in entry))).toBe(true);
    });

    it('replaces each field given whole, the filter included', async () => {
      const webhook = await createWebhook({
        events: ['asset.created'],
        filter: { sources: ['a'], sites: ['b'] },
      });
      const updated = await t.request('PUT', `/api/webhooks/${webhook.id}`, {
        token: admin,
        body: { filter: { minScore: 3 }, enabled: false },
      });
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({
        events: ['asset.created'],
        filter: { minScore: 3 },
        enabled: false,
      });
      const cleared = await t.request('PUT', `/api/webhooks/${webhook.id}`, {
        token: admin,
        body: { filter: null },
      });
      expect(cleared.body.filter).toBeNull();
    });

    it.each([
      [{ events: [] }, /events/],
      [{ events: ['asset.renamed'] }, /events must be one of/],
      [{ events: ['asset.created'], url: 'ftp://127.0.0.1/x' }, /url must start with/],
      [{ events: ['asset.created'], url: 'not a url' }, /url must be an absolute URL/],
      [{ events: ['asset.created'], filter: { minScore: 11 } }, /filter.minScore/],
      [{ events: ['asset.created'], filter: { sources: [] } }, /filter.sources/],
      [{ events: ['asset.created'], filter: { owner: 'x' } }, /filter.owner/],
      [{ events: ['asset.created'], enabled: null }, /enabled/],
      [{ events: ['asset.created'], secret: 'x' }, /secret/],
    ])('refuses %j with a 400 naming the field', async (body, pattern) => {
      const response = await t.request('POST', '/api/webhooks', {
        token: admin,
        body: { url: receiver.url, ...body },
      });
      expect(response.status).toBe(400);
      expectErrorBody(response, pattern);
    });

    it('is for admins only, 404 for an unknown id, and 204 then 404 on delete', async () => {
      const editor = await t.createUser('editor');
      const refused = await t.request('GET', '/api/webhooks', { token: editor.token });
      expect(refused.status).toBe(403);
      const unknown = await t.request('GET', '/api/webhooks/nope', { token: admin });
      expect(unknown.status).toBe(404);
      expectErrorBody(unknown);
      const webhook = await createWebhook({ events: ['asset.created'] });
      const removed = await t.request('DELETE', `/api/webhooks/${webhook.id}`, { token: admin });
      expect(removed.status).toBe(204);
      const again = await t.request('DELETE', `/api/webhooks/${webhook.id}`, { token: admin });
      expect(again.status).toBe(404);
    });

    it('queues a ping (202), refused with 409 while the webhook is disabled', async () => {
      const webhook = await createWebhook({ events: ['asset.created'] });
      const ping = await t.request('POST', `/api/webhooks/${webhook.id}/ping`, { token: admin });
      expect(ping.status).toBe(202);
      await receiver.untilCount('ping', 1);
      expect(receiver.ofType('ping')[0].message.data).toEqual({ webhookId: webhook.id });
      await t.request('PUT', `/api/webhooks/${webhook.id}`, {
        token: admin,
        body: { enabled: false },
      });
      const refused = await t.request('POST', `/api/webhooks/${webhook.id}/ping`, {
        token: admin,
      });
      expect(refused.status).toBe(409);
      expectErrorBody(refused, /disabled/);
    });
  });

  describe('messages', () => {
    it('are signed as Standard Webhooks say: the official library verifies them', async () => {
      const webhook = await createWebhook({ events: ['asset.created'] });
      const asset = await createAsset({ name: 'signed-1', ip: '10.20.0.1', site: 'lab' });
      await receiver.untilCount('asset.created', 1);
      const [received] = receiver.received;
      const verified = new StandardWebhook(webhook.secret).verify(
        received.body,
        received.headers as Record<string, string>,
      );
      expect(verified).toEqual(received.message);
      expect(received.message).toEqual({
        id: received.headers['webhook-id'],
        type: 'asset.created',
        timestamp: expect.any(String),
        data: asset,
      });
      expect(received.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
      expect(received.headers['content-type']).toBe('application/json');
      // Another secret does not verify it.
      const other = await createWebhook({ events: ['run.failed'] });
      expect(() =>
        new StandardWebhook(other.secret).verify(
          received.body,
          received.headers as Record<string, string>,
        ),
      ).toThrow();
    });

    it("come in a write's order: an ingestion's assets, then their findings", async () => {
      await createWebhook({ events: ['asset.created', 'finding.opened'] });
      // Quotes, a backslash and characters past ASCII, as they reach the outbox's table.
      const names = ['order-1 "quoted"', 'order-2 back\\slash {a,b}', 'order-3 ünï ✓ 🛰'];
      const ids = ['order-1', 'order-2', 'order-3'];
      const response = await ingest({
        options: { source: 'order-feed' },
        assets: names.map((name, index) => ({
          id: ids[index],
          name,
          ip: `10.21.0.${index + 1}`,
          vulnerabilities: [{ id: `CVE-2024-000${index}`, score: 9.8 }],
        })),
      });
      expect(response.status).toBe(200);
      await receiver.untilCount('finding.opened', 3);
      expect(receiver.received.map(({ message }) => [message.type, message.data.id])).toEqual([
        ...ids.map((id) => ['asset.created', id]),
        ...ids.map(() => ['finding.opened', expect.any(String)]),
      ]);
      expect(receiver.ofType('asset.created').map(({ message }) => message.data.name)).toEqual(
        names,
      );
      const findings = receiver.ofType('finding.opened').map(({ message }) => message.data);
      expect(findings.map((finding) => finding.asset)).toEqual(
        names.map((name, index) => ({
          id: ids[index],
          name,
          ip: `10.21.0.${index + 1}`,
          site: null,
        })),
      );
      expect(findings[0]).toMatchObject({ vulnId: 'CVE-2024-0000', status: 'open', score: 9.8 });
    });

    it('none for a dry run or a rolled-back ingestion, all for the write that commits', async () => {
      const webhook = await createWebhook({ events: ['asset.created', 'run.succeeded'] });
      const dry = await ingest({
        options: { dryRun: true },
        assets: [{ id: 'dry-1', name: 'dry-1' }],
      });
      expect(dry.status).toBe(200);
      const seeded = await ingest({
        options: { source: 'rollback-feed' },
        assets: [{ id: 'rb-1', name: 'rb-1' }],
      });
      expect(seeded.status).toBe(200);
      // Its assets are written before its relations are read: the bad relation rolls them back.
      const rolledBack = await ingest({
        options: { source: 'rollback-feed' },
        assets: [{ id: 'rb-2', name: 'rb-2' }],
        relations: [{ sourceAssetId: 'rb-2', targetAssetId: 'rb-missing', type: 'depends_on' }],
      });
      expect(rolledBack.status).toBe(400);
      expect((await t.request('GET', '/api/assets/rb-2', { token: admin })).status).toBe(404);
      // The next committed write's events come after anything sent before them.
      await createAsset({ name: 'marker-1' });
      await receiver.until(() =>
        receiver.received.some(({ message }) => message.data.name === 'marker-1'),
      );
      expect(
        receiver.received.map(({ message }) => [
          message.type,
          message.data.id ?? message.data.name,
        ]),
      ).toEqual([
        ['asset.created', 'rb-1'],
        ['run.succeeded', seeded.body.runId],
        ['asset.created', expect.any(String)],
      ]);
      expect(await deliveries(webhook.id)).toHaveLength(3);
    });

    it('pass the filter: minScore for findings, the sources and sites of their asset', async () => {
      await createWebhook({
        events: ['asset.created', 'finding.opened'],
        filter: { minScore: 7, sources: ['scanner-a'], sites: ['dmz'] },
      });
      const response = await ingest({
        options: { source: 'scanner-a' },
        assets: [
          {
            id: 'flt-1',
            name: 'flt-1',
            site: 'dmz',
            vulnerabilities: [
              { id: 'CVE-2024-2001', score: 9.1 },
              { id: 'CVE-2024-2002', score: 5 },
            ],
          },
          {
            id: 'flt-2',
            name: 'flt-2',
            site: 'office',
            vulnerabilities: [{ id: 'CVE-2024-2003', score: 10 }],
          },
        ],
      });
      expect(response.status).toBe(200);
      // Not its source: held back.
      await ingest({
        options: { source: 'scanner-b' },
        assets: [{ id: 'flt-3', name: 'flt-3', site: 'dmz' }],
      });
      // Entered by hand: no source at all.
      await createAsset({ name: 'flt-manual', site: 'dmz' });
      await t.request('POST', `/api/webhooks/${created[0]}/ping`, { token: admin });
      await receiver.untilCount('ping', 1);
      expect(
        receiver.received.map(({ message }) => [
          message.type,
          message.data.vulnId ?? message.data.id,
        ]),
      ).toEqual([
        ['asset.created', 'flt-1'],
        ['finding.opened', 'CVE-2024-2001'],
        ['ping', undefined],
      ]);
    });

    it('tell assets deleted through the API and by an ingestion, and findings fixed', async () => {
      await createWebhook({ events: ['asset.deleted', 'finding.fixed', 'finding.reopened'] });
      const asset = await createAsset({ name: 'del-1' });
      await ingest({
        options: { source: 'del-feed' },
        assets: [
          { id: 'del-2', name: 'del-2', vulnerabilities: [{ id: 'CVE-2024-3001', score: 4 }] },
        ],
      });
      expect((await t.request('DELETE', `/api/assets/${asset.id}`, { token: admin })).status).toBe(
        204,
      );
      await ingest({
        options: { source: 'del-feed' },
        assets: [{ id: 'del-2', name: 'del-2', vulnerabilities: [] }],
      });
      await ingest({
        options: { source: 'del-feed' },
        assets: [{ id: 'del-2', name: 'del-2', vulnerabilities: [{ id: 'CVE-2024-3001' }] }],
      });
      await ingest({ options: { source: 'del-feed', deleteStale: true }, assets: [] });
      await receiver.untilCount('asset.deleted', 2);
      expect(receiver.received.map(({ message }) => message.type)).toEqual([
        'asset.deleted',
        'finding.fixed',
        'finding.reopened',
        'asset.deleted',
      ]);
      expect(receiver.received[0].message.data).toMatchObject({ id: asset.id, name: 'del-1' });
      expect(receiver.received[3].message.data).toMatchObject({
        id: 'del-2',
        sources: ['del-feed'],
        vulnerabilities: [expect.objectContaining({ id: 'CVE-2024-3001' })],
      });
    });

    it('tell the assets a merge folds into another as deleted, and nothing of the one kept', async () => {
      await createWebhook({ events: ['asset.created', 'asset.deleted'] });
      const kept = await createAsset({ name: 'merge-kept' });
      const gone = await createAsset({ name: 'merge-gone' });
      await receiver.untilCount('asset.created', 2);
      const merged = await t.request('POST', `/api/assets/${kept.id}/merge`, {
        token: admin,
        body: { from: [gone.id] },
      });
      expect(merged.status).toBe(200);
      await receiver.untilCount('asset.deleted', 1);
      expect(
        receiver.received.map(({ message }) => [message.type, (message.data as any).id]),
      ).toEqual([
        ['asset.created', kept.id],
        ['asset.created', gone.id],
        ['asset.deleted', gone.id],
      ]);
    });

    it("tell a run's end: succeeded and rejected, with the run", async () => {
      await createWebhook({ events: ['run.succeeded', 'run.rejected'] });
      const ok = await ingest({ options: { source: 'runs-feed' }, assets: [] });
      const bad = await ingest({ options: { source: 'runs-feed' }, assets: [{ ip: 'x' }] });
      expect(bad.status).toBe(400);
      await receiver.untilCount('run.rejected', 1);
      const [succeeded, rejected] = receiver.received.map(({ message }) => message);
      expect(succeeded).toMatchObject({
        type: 'run.succeeded',
        data: { id: ok.body.runId, status: 'succeeded', source: 'runs-feed' },
      });
      expect(rejected).toMatchObject({
        type: 'run.rejected',
        data: { status: 'rejected', error: bad.body.error },
      });
    });
  });

  describe('delivery', () => {
    it('retries a failed answer with the same webhook-id until one succeeds', async () => {
      receiver.answer = (_message, index) => (index < 2 ? 500 : 204);
      const webhook = await createWebhook({ events: ['asset.created'] });
      await createAsset({ name: 'retry-1' });
      await receiver.untilCount('asset.created', 3);
      const ids = receiver.received.map(({ headers }) => headers['webhook-id']);
      expect(new Set(ids).size).toBe(1);
      const [delivery] = await eventually(
        () => deliveries(webhook.id),
        (list) => list[0]?.status === 'delivered',
      );
      expect(delivery).toEqual({
        id: expect.any(String),
        eventId: ids[0],
        type: 'asset.created',
        status: 'delivered',
        attempts: 3,
        lastAttemptAt: expect.any(String),
        responseStatus: 204,
        nextAttemptAt: null,
      });
    });

    it('does not follow a redirect: a 3xx is retried', async () => {
      receiver.answer = (_message, index) => (index === 0 ? 302 : 200);
      const webhook = await createWebhook({ events: ['asset.created'] });
      await createAsset({ name: 'redirect-1' });
      await receiver.untilCount('asset.created', 2);
      const [delivery] = await eventually(
        () => deliveries(webhook.id),
        (list) => list[0]?.status === 'delivered',
      );
      expect(delivery.attempts).toBe(2);
    });

    it('redelivers an event as a new delivery with the same webhook-id', async () => {
      const webhook = await createWebhook({ events: ['asset.created'] });
      await createAsset({ name: 'again-1' });
      await receiver.untilCount('asset.created', 1);
      const [first] = await eventually(
        () => deliveries(webhook.id),
        (list) => list[0]?.status === 'delivered',
      );
      const response = await t.request(
        'POST',
        `/api/webhooks/${webhook.id}/deliveries/${first.id}/redeliver`,
        { token: admin },
      );
      expect(response.status).toBe(202);
      await receiver.untilCount('asset.created', 2);
      expect(receiver.received[1].headers['webhook-id']).toBe(
        receiver.received[0].headers['webhook-id'],
      );
      const list = await t.request('GET', `/api/webhooks/${webhook.id}/deliveries?limit=1`, {
        token: admin,
      });
      expect(list.headers.get('x-total-count')).toBe('2');
      expect(list.body[0].eventId).toBe(first.eventId);
      expect(list.body[0].id).not.toBe(first.id);
      const unknown = await t.request(
        'POST',
        `/api/webhooks/${webhook.id}/deliveries/nope/redeliver`,
        { token: admin },
      );
      expect(unknown.status).toBe(404);
    });
  });
});

describe('webhook delivery limits', () => {
  let t: TestApp;
  let admin: string;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    t = await TestApp.start({
      ...LOOPBACK_ALLOWED,
      WEBHOOK_RETRY_FOR_S: '1',
      WEBHOOK_DISABLE_AFTER_S: '1',
      METRICS_PORT: '0',
      METRICS_HOST: '127.0.0.1',
    });
    admin = await t.login();
    receiver = await WebhookReceiver.start();
    receiver.answer = () => 500;
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  it('fails a delivery after retrying for its time, and disables a webhook failing too long', async () => {
    const response = await t.request('POST', '/api/webhooks', {
      token: admin,
      body: { url: receiver.url, events: ['asset.created'] },
    });
    const id = response.body.id as string;
    await t.request('POST', '/api/assets', { token: admin, body: { name: 'failing-1' } });
    const [failed] = await eventually(
      async () =>
        (await t.request('GET', `/api/webhooks/${id}/deliveries`, { token: admin })).body as any[],
      (list) => list[0]?.status === 'failed',
    );
    expect(failed).toMatchObject({ status: 'failed', responseStatus: 500, nextAttemptAt: null });
    expect(failed.attempts).toBeGreaterThan(1);
    // Failing since its first attempt: the next failure, a second later, disables it.
    const webhook = await eventually(
      async () => {
        await t.request('POST', `/api/webhooks/${id}/ping`, { token: admin });
        return (await t.request('GET', `/api/webhooks/${id}`, { token: admin })).body;
      },
      (body) => body.enabled === false,
    );
    expect(webhook.disabledReason).toMatch(/disabled after failing/);

    // Counted by outcome; nothing pending to an enabled webhook is left.
    const port = t.app.get(MetricsServer).address()!.port;
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    const value = (sample: string) => {
      const line = text.split('\n').find((entry) => entry.startsWith(`${sample} `));
      return line === undefined ? undefined : Number(line.split(' ')[1]);
    };
    expect(value('assetmap_webhook_deliveries_total{outcome="retried"}')).toBeGreaterThan(0);
    expect(value('assetmap_webhook_deliveries_total{outcome="failed"}')).toBeGreaterThan(0);
    expect(value('assetmap_webhook_deliveries_total{outcome="delivered"}')).toBeUndefined();
    expect(value('assetmap_webhook_queue_depth')).toBe(0);
    expect(value('assetmap_webhook_oldest_pending_seconds')).toBe(0);
  });
});

describe('webhook URLs refused (SSRF)', () => {
  let t: TestApp;
  let admin: string;
  /** The host names the stub resolver was asked for. */
  const asked: string[] = [];

  beforeAll(async () => {
    t = await TestApp.start();
    admin = await t.login();
    // Test names that resolve to private and link-local addresses, checked before any connection.
    const addresses: Record<string, string> = {
      'intranet.test': '10.1.2.3',
      'metadata.test': '169.254.169.254',
      'home.test': '192.168.0.10',
      'v6.test': 'fd00::1',
      // Resolved elsewhere when its webhook was made, now to a loopback address.
      'rebound.test': '127.0.0.2',
    };
    jest.spyOn(t.app.get(WebhookResolver), 'lookup').mockImplementation(async (host: string) => {
      asked.push(host);
      const address = addresses[host];
      if (address === undefined) throw new Error(`${host} is no test name`);
      return [{ address, family: address.includes(':') ? 6 : 4 }];
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it.each([
    ['http://127.0.0.1:9/hook', /url must start with https:\/\//],
    ['https://127.0.0.1:9/hook', /127\.0\.0\.1, a loopback, private or link-local address/],
    ['https://[::1]:9/hook', /::1, a loopback/],
    ['https://intranet.test/hook', /resolves to 10\.1\.2\.3/],
    ['https://metadata.test/latest', /resolves to 169\.254\.169\.254/],
    ['https://home.test/hook', /resolves to 192\.168\.0\.10/],
    ['https://v6.test/hook', /resolves to fd00::1/],
    ['https://user:pw@127.0.0.1/hook', /credentials/],
  ])('refuses %s with a 400', async (url, pattern) => {
    const response = await t.request('POST', '/api/webhooks', {
      token: admin,
      body: { url, events: ['asset.created'] },
    });
    expect(response.status).toBe(400);
    expectErrorBody(response, pattern);
  });

  it('refuses at delivery a host whose address became private, before connecting', async () => {
    // A webhook created while its host resolved elsewhere, as a DNS answer changes later.
    const repository = t.app.get(WebhooksRepository);
    const now = new Date();
    const id = '00000000-0000-4000-8000-000000000001';
    await repository.insert({
      id,
      url: 'https://rebound.test/hook',
      events: ['asset.created'],
      filter: null,
      enabled: true,
      secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      failingSince: null,
      disabledReason: null,
      claimedUntil: null,
      createdAt: now,
      updatedAt: now,
    });
    await t.request('POST', '/api/assets', { token: admin, body: { name: 'rebound-1' } });
    const [delivery] = await eventually(
      async () =>
        (await t.request('GET', `/api/webhooks/${id}/deliveries`, { token: admin })).body as any[],
      (list) => (list[0]?.attempts ?? 0) >= 1,
    );
    expect(delivery).toMatchObject({ status: 'pending', responseStatus: null });
    expect(asked).toContain('rebound.test');
    // Refused by the check, not by a connection that was tried.
    const { deliveries } = await repository.deliveriesOf(id, { limit: 1, offset: 0 });
    expect(deliveries[0].lastError).toMatch(/resolves to 127\.0\.0\.2, a loopback/);
    await t.request('PUT', `/api/webhooks/${id}`, { token: admin, body: { enabled: false } });
  });
});

describe('webhook deliveries across processes', () => {
  let database: TestDatabase;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    database = await createTestDatabase({ file: true });
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await receiver.close();
    await database.drop();
  });

  it('sends after a restart what was pending when the process stopped', async () => {
    const first = await TestApp.start(LOOPBACK_ALLOWED, database);
    const admin = await first.login();
    await first.request('POST', '/api/webhooks', {
      token: admin,
      body: { url: receiver.url, events: ['asset.created'] },
    });
    // Its sender stopped first: the events stay pending in the outbox.
    await first.app.get(DeliveryDispatcher).onModuleDestroy();
    for (const name of ['pending-1', 'pending-2']) {
      await first.request('POST', '/api/assets', { token: admin, body: { name } });
    }
    await first.close();
    expect(receiver.received).toHaveLength(0);

    const second = await TestApp.start(LOOPBACK_ALLOWED, database);
    try {
      await receiver.untilCount('asset.created', 2);
      expect(receiver.received.map(({ message }) => message.data.name)).toEqual([
        'pending-1',
        'pending-2',
      ]);
    } finally {
      await second.close();
    }
  });
  it('leaves a webhook another process holds to that one until its hold ends', async () => {
    const own = await WebhookReceiver.start();
    const first = await TestApp.start(LOOPBACK_ALLOWED, database);
    let holdEnds = 0;
    try {
      const admin = await first.login();
      const webhook = await first.request('POST', '/api/webhooks', {
        token: admin,
        body: { url: own.url, events: ['asset.created'] },
      });
      await first.app.get(DeliveryDispatcher).onModuleDestroy();
      await first.request('POST', '/api/assets', { token: admin, body: { name: 'held-1' } });
      // Taken as another process's sender takes it (a replica, or one that dies holding it).
      const now = new Date();
      holdEnds = now.getTime() + 4000;
      const claimed = await first.app
        .get(WebhooksRepository)
        .claim(256, 16, now, new Date(holdEnds), [], '');
      // The earlier test's webhook, if still there, is taken with it.
      expect(claimed.map((queue) => queue[0].webhookId)).toContain(webhook.body.id);
    } finally {
      await first.close();
    }

    const second = await TestApp.start(LOOPBACK_ALLOWED, database);
    try {
      await new Promise((resolve) =>
        setTimeout(resolve, Math.max(0, holdEnds - 1000 - Date.now())),
      );
      expect(own.received).toHaveLength(0);
      await own.until(() => own.received.length === 1);
      expect(Date.now()).toBeGreaterThanOrEqual(holdEnds);
      expect(own.received[0].message.data.name).toBe('held-1');
    } finally {
      await second.close();
      await own.close();
    }
  });
});

// Skipped, with a warning, where PostgreSQL is missing; in CI that fails instead.
const describeWithPostgres = await describeIfAvailable({ postgres: POSTGRES_SERVER_URL });

/** Two replicas on one PostgreSQL database: each delivery is claimed by one of them. */
describeWithPostgres('webhook deliveries from two replicas', () => {
  let database: TestDatabase;
  let receiver: WebhookReceiver;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    database = await createTestDatabase({ postgres: POSTGRES_SERVER_URL });
    receiver = await WebhookReceiver.start();
    // One secret: a session of either replica is good at both.
    const env = { ...LOOPBACK_ALLOWED, JWT_SECRET: randomBytes(32).toString('hex') };
    a = await TestApp.start(env, database);
    b = await TestApp.start(env, database);
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    await receiver.close();
    await database.drop();
  });

  it('sends each event exactly once to a receiver that counts', async () => {
    const tokenA = await a.login();
    const tokenB = await b.login();
    const webhook = await a.request('POST', '/api/webhooks', {
      token: tokenA,
      body: { url: receiver.url, events: ['asset.created'] },
    });
    expect(webhook.status).toBe(201);
    const ingested = await b.request('POST', INGEST, {
      token: tokenB,
      body: {
        assets: Array.from({ length: 60 }, (_, i) => ({ id: `rep-${i}`, name: `rep-${i}` })),
      },
    });
    expect(ingested.status).toBe(200);
    for (let i = 0; i < 20; i += 1) {
      const [app, token] = i % 2 === 0 ? [a, tokenA] : [b, tokenB];
      await app.request('POST', '/api/assets', { token, body: { name: `rep-api-${i}` } });
    }
    await receiver.untilCount('asset.created', 80);
    // Every delivery recorded as delivered: none is left to be sent again.
    await eventually(
      async () =>
        (
          await a.request('GET', `/api/webhooks/${webhook.body.id}/deliveries?limit=1000`, {
            token: tokenA,
          })
        ).body as any[],
      (list) => list.length === 80 && list.every((entry) => entry.status === 'delivered'),
    );
    const ids = receiver.received.map(({ headers }) => headers['webhook-id']);
    expect(ids).toHaveLength(80);
    expect(new Set(ids).size).toBe(80);
  });
});
