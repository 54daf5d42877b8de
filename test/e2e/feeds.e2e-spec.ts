import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { EventMark } from '../../src/database/entities/event-mark.entity.js';
import { Feed } from '../../src/database/entities/feed.entity.js';
import { Finding } from '../../src/database/entities/finding.entity.js';
import { IngestionRun } from '../../src/database/entities/ingestion-run.entity.js';
import { EventChecks } from '../../src/events/event-checks.service.js';
import { TestApp, expectErrorBody } from '../support/test-app.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

const INGEST = '/api/integrations/ingest';
const HOUR_MS = 3_600_000;

describe('feeds and checks', () => {
  let t: TestApp;
  let admin: string;
  let viewer: string;
  let receiver: WebhookReceiver;

  const feeds = async () => {
    const response = await t.request('GET', '/api/sources', { token: viewer });
    expect(response.status).toBe(200);
    return response.body as Record<string, any>[];
  };
  const feed = async (name: string) => (await feeds()).find((entry) => entry.name === name);
  /** Moves what a feed's lateness is measured from an hour back, as if that hour had passed. */
  const anHourLater = async (name: string) => {
    const past = new Date(Date.now() - HOUR_MS);
    await t.dataSource.getRepository(Feed).update({ name }, { expectedSince: past });
    await t.dataSource.getRepository(IngestionRun).update({ source: name }, { finishedAt: past });
  };
  const check = () => t.app.get(EventChecks).check();

  beforeAll(async () => {
    t = await TestApp.start({
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_POLL_MS: '20',
    });
    admin = await t.login();
    viewer = (await t.createUser('viewer')).token;
    receiver = await WebhookReceiver.start();
    const webhook = await t.request('POST', '/api/webhooks', {
      token: admin,
      body: {
        url: receiver.url,
        events: ['feed.late', 'finding.overdue'],
        filter: { sources: ['nightly'] },
      },
    });
    expect(webhook.status).toBe(201);
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  it('lists the feeds runs named, with their last run, assets and status', async () => {
    const ok = await t.request('POST', INGEST, {
      token: admin,
      body: {
        options: { source: 'nightly' },
        assets: [
          { id: 'n-1', name: 'n-1' },
          { id: 'n-2', name: 'n-2' },
        ],
      },
    });
    expect(ok.status).toBe(200);
    const bad = await t.request('POST', INGEST, {
      token: admin,
      body: { options: { source: 'weekly' }, assets: [{ name: '' }] },
    });
    expect(bad.status).toBe(400);
    // A key may not name a feed it is not bound to, not even in GET /api/sources.
    const bound = await t.request('POST', '/api/auth/api-keys', {
      token: admin,
      body: { name: 'nightly only', sources: ['nightly'] },
    });
    expect(bound.status).toBe(201);
    const refused = await t.request('POST', INGEST, {
      token: bound.body.key,
      body: { options: { source: 'intruder' }, assets: [{ id: 'i-1', name: 'i-1' }] },
    });
    expect(refused.status).toBe(403);
    const listed = await feeds();
    expect(listed.map((entry) => entry.name)).toEqual(['nightly', 'weekly']);
    expect(listed[0]).toEqual({
      name: 'nightly',
      assets: 2,
      lastRunAt: expect.any(String),
      lastSucceededAt: expect.any(String),
      lastStatus: 'succeeded',
      expectedEverySeconds: null,
      late: false,
    });
    expect(listed[1]).toMatchObject({
      name: 'weekly',
      assets: 0,
      lastSucceededAt: null,
      lastStatus: 'rejected',
      late: false,
    });
  });

  it('sets a cadence (admin), checked, null clearing it', async () => {
    const refused = await t.request('PUT', '/api/sources/nightly', {
      token: viewer,
      body: { expectedEverySeconds: 3600 },
    });
    expect(refused.status).toBe(403);
    for (const value of [59, 31_536_001, 1.5, 'x']) {
      const response = await t.request('PUT', '/api/sources/nightly', {
        token: admin,
        body: { expectedEverySeconds: value },
      });
      expect(response.status).toBe(400);
      expectErrorBody(response, /expectedEverySeconds/);
    }
    const missing = await t.request('PUT', '/api/sources/nightly', { token: admin, body: {} });
    expect(missing.status).toBe(400);
    const set = await t.request('PUT', '/api/sources/weekly', {
      token: admin,
      body: { expectedEverySeconds: 604800 },
    });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ name: 'weekly', expectedEverySeconds: 604800, late: false });
    const cleared = await t.request('PUT', '/api/sources/weekly', {
      token: admin,
      body: { expectedEverySeconds: null },
    });
    expect(cleared.body).toMatchObject({ expectedEverySeconds: null, late: false });
  });

  it('says late once the cadence has passed, and sends feed.late once each time', async () => {
    await t.request('PUT', '/api/sources/nightly', {
      token: admin,
      body: { expectedEverySeconds: 60 },
    });
    await check();
    expect((await feed('nightly'))!.late).toBe(false);
    await anHourLater('nightly');
    expect((await feed('nightly'))!.late).toBe(true);
    await check();
    await check();
    await receiver.untilCount('feed.late', 1);
    expect(receiver.received[0].message.data).toMatchObject({
      name: 'nightly',
      late: true,
      expectedEverySeconds: 60,
    });

    // On time again after a run, then late again: told again.
    await t.request('POST', INGEST, {
      token: admin,
      body: { options: { source: 'nightly' }, assets: [{ id: 'n-1', name: 'n-1' }] },
    });
    expect((await feed('nightly'))!.late).toBe(false);
    await check();
    await anHourLater('nightly');
    await check();
    await receiver.untilCount('feed.late', 2);
    // A ping after both checks comes after anything they sent: no third feed.late.
    const [webhook] = (await t.request('GET', '/api/webhooks', { token: admin })).body;
    await t.request('POST', `/api/webhooks/${webhook.id}/ping`, { token: admin });
    await receiver.untilCount('ping', 1);
    expect(receiver.ofType('feed.late')).toHaveLength(2);
  });

  it('sends finding.overdue once, when a finding crosses its due date', async () => {
    await check();
    const response = await t.request('POST', INGEST, {
      token: admin,
      body: {
        options: { source: 'nightly' },
        assets: [
          { id: 'n-9', name: 'n-9', vulnerabilities: [{ id: 'CVE-2024-9999', score: 9.5 }] },
        ],
      },
    });
    expect(response.status).toBe(200);
    // Opened just when the last check's stretch of critical due dates ends: the next check
    // finds it crossed.
    const mark = await t.dataSource
      .getRepository(EventMark)
      .findOneByOrFail({ name: 'finding.overdue:critical' });
    await t.seed(() =>
      t.dataSource
        .getRepository(Finding)
        .update({ assetId: 'n-9' }, { firstSeenAt: mark.checkedUntil }),
    );
    await check();
    await check();
    await receiver.untilCount('finding.overdue', 1);
    const [webhook] = (await t.request('GET', '/api/webhooks', { token: admin })).body;
    await t.request('POST', `/api/webhooks/${webhook.id}/ping`, { token: admin });
    await receiver.untilCount('ping', 2);
    expect(receiver.ofType('finding.overdue').map(({ message }) => message.data)).toEqual([
      expect.objectContaining({
        vulnId: 'CVE-2024-9999',
        overdue: true,
        asset: { id: 'n-9', name: 'n-9', ip: null, site: null },
      }),
    ]);
  });

  it('sends finding.overdue for an acceptance that ended: at its due date, or at its end', async () => {
    const marks = t.dataSource.getRepository(EventMark);
    const findings = t.dataSource.getRepository(Finding);
    await check();
    const names = ['n-10', 'n-11', 'n-12'];
    const response = await t.request('POST', INGEST, {
      token: admin,
      body: {
        options: { source: 'nightly' },
        assets: names.map((name, index) => ({
          id: name,
          name,
          vulnerabilities: [{ id: `CVE-2024-888${index}`, score: 9.5 }],
        })),
      },
    });
    expect(response.status).toBe(200);
    for (const name of names) {
      const [finding] = (await t.request('GET', `/api/assets/${name}/findings`, { token: admin }))
        .body;
      const accepted = await t.request('PATCH', `/api/findings/${finding.id}`, {
        token: admin,
        body: {
          status: 'accepted',
          reason: 'waiting for the vendor',
          acceptedUntil: new Date(Date.now() + 86_400_000).toISOString(),
        },
      });
      expect(accepted.status).toBe(200);
    }
    const due = await marks.findOneByOrFail({ name: 'finding.overdue:critical' });
    const ended = await marks.findOneByOrFail({ name: 'finding.overdue:acceptance' });
    const longAgo = new Date(Date.now() - 100 * 86_400_000);
    await t.seed(async () => {
      // Overdue since long ago; its acceptance ends in the next check's stretch.
      await findings.update(
        { assetId: 'n-10' },
        { firstSeenAt: longAgo, acceptedUntil: ended.checkedUntil },
      );
      // Its acceptance ended long ago; its due date passes in the next check's stretch.
      await findings.update(
        { assetId: 'n-11' },
        { firstSeenAt: due.checkedUntil, acceptedUntil: longAgo },
      );
      // Its due date passes in the next check's stretch, but it is accepted for a day more.
      await findings.update({ assetId: 'n-12' }, { firstSeenAt: due.checkedUntil });
    });
    await check();
    await check();
    const [webhook] = (await t.request('GET', '/api/webhooks', { token: admin })).body;
    await t.request('POST', `/api/webhooks/${webhook.id}/ping`, { token: admin });
    await receiver.untilCount('ping', 3);
    expect(receiver.ofType('finding.overdue').map(({ message }) => message.data.vulnId)).toEqual([
      'CVE-2024-9999',
      'CVE-2024-8881',
      'CVE-2024-8880',
    ]);
    expect(receiver.ofType('finding.overdue')[2].message.data).toMatchObject({
      status: 'open',
      overdue: true,
      reason: 'waiting for the vendor',
    });
  });

  it('tells nothing of what was overdue before the checks first ran', async () => {
    // As on the first start with this feature: no check has run yet.
    await t.seed(() => t.dataSource.getRepository(EventMark).clear());
    const response = await t.request('POST', INGEST, {
      token: admin,
      body: {
        options: { source: 'nightly' },
        assets: [
          { id: 'n-20', name: 'n-20', vulnerabilities: [{ id: 'CVE-2024-7777', score: 9.5 }] },
        ],
      },
    });
    expect(response.status).toBe(200);
    await t.seed(() =>
      t.dataSource
        .getRepository(Finding)
        .update({ assetId: 'n-20' }, { firstSeenAt: new Date(Date.now() - 100 * 86_400_000) }),
    );
    await check();
    await check();
    const [webhook] = (await t.request('GET', '/api/webhooks', { token: admin })).body;
    await t.request('POST', `/api/webhooks/${webhook.id}/ping`, { token: admin });
    await receiver.untilCount('ping', 4);
    expect(receiver.ofType('finding.overdue')).toHaveLength(3);
    const overdue = await t.request('GET', '/api/findings?overdue=true&assetId=n-20', {
      token: admin,
    });
    expect(overdue.body).toHaveLength(1);
  });
});
