import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { expectErrorBody, TestApp } from '../support/test-app.js';

const packageVersion = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string })
  .version;

describe('health', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await TestApp.start({ RATE_LIMIT: '2' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers liveness without authentication, with the package version', async () => {
    const response = await t.request('GET', '/api/health');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      status: 'ok',
      message: expect.any(String),
      version: packageVersion,
      uptime: expect.any(Number),
    });
    expect(Number.isInteger(response.body.uptime)).toBe(true);
  });

  it('answers readiness when the database answers', async () => {
    const response = await t.request('GET', '/api/health/ready');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'ok', version: packageVersion });
  });

  it('is never rate limited', async () => {
    for (let i = 0; i < 10; i++) {
      expect((await t.request('GET', '/api/health')).status).toBe(200);
      expect((await t.request('GET', '/api/health/ready')).status).toBe(200);
    }
  });

  it('reports 503 on readiness, and liveness stays 200, once the database is closed', async () => {
    await t.dataSource.destroy();
    const ready = await t.request('GET', '/api/health/ready');
    expect(ready.status).toBe(503);
    expectErrorBody(ready, /database/);
    expect((await t.request('GET', '/api/health')).status).toBe(200);
  });
});
