import { afterEach, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { ServiceProcess } from '../support/service-process.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../support/test-app.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

const BURST = 200;

describe('a burst of deliveries whose process is killed', () => {
  let database: TestDatabase | undefined;
  let receiver: WebhookReceiver | undefined;

  afterEach(async () => {
    await ServiceProcess.killAll();
    await receiver?.close();
    await database?.drop();
  });

  it('loses none: the next process sends what the killed one had not', async () => {
    // A file for SQLite: the database outlives the process.
    database = await createTestDatabase({ file: true });
    receiver = await WebhookReceiver.start();
    const env = {
      NODE_ENV: 'production',
      DATABASE_URL: database.url,
      JWT_SECRET: randomBytes(32).toString('hex'),
      ADMIN_PASSWORD,
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_POLL_MS: '20',
      // A claim held by a dead process runs out soon: 12 attempts of 200 ms.
      WEBHOOK_CONCURRENCY: '2',
      WEBHOOK_TIMEOUT_MS: '200',
    };
    const login = async (service: ServiceProcess) => {
      const response = await service.request('POST', '/api/auth/login', {
        body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
      });
      expect(response.status).toBe(200);
      return response.body.token as string;
    };

    const first = await ServiceProcess.start(env);
    const token = await login(first);
    const webhook = await first.request('POST', '/api/webhooks', {
      token,
      body: { url: receiver.url, events: ['asset.created'] },
    });
    expect(webhook.status).toBe(201);
    const ingested = await first.request('POST', '/api/integrations/ingest', {
      token,
      body: {
        assets: Array.from({ length: BURST }, (_, i) => ({ id: `burst-${i}`, name: `burst-${i}` })),
      },
    });
    expect(ingested.status).toBe(200);
    await receiver.until(() => receiver!.received.length >= 20);
    first.signal('SIGKILL');
    await first.exited;
    const sentBefore = new Set(receiver.received.map(({ headers }) => headers['webhook-id']));
    expect(sentBefore.size).toBeLessThan(BURST);

    await ServiceProcess.start(env);
    const distinct = () => new Set(receiver!.received.map(({ headers }) => headers['webhook-id']));
    await receiver.until(() => distinct().size === BURST);
    expect(new Set(receiver.received.map(({ message }) => message.data.id)).size).toBe(BURST);
  }, 120_000);
});
