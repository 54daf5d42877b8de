import { describe, expect, it } from '@jest/globals';
import { ADMIN_EMAIL, TestApp } from '../support/test-app.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, testingPostgres } from '../support/test-database.js';

describe('bootstrap administrator', () => {
  it('is created with ADMIN_EMAIL and ADMIN_PASSWORD, which is never logged', async () => {
    const t = await TestApp.start({
      ADMIN_EMAIL: 'Owner@Example.com',
      ADMIN_PASSWORD: 'configured-admin-password',
    });
    try {
      const token = await t.login('owner@example.com', 'configured-admin-password');
      const me = await t.request('GET', '/api/auth/me', { token });
      expect(me.body).toMatchObject({ email: 'owner@example.com', role: 'admin' });
      expect(t.logger.text()).toContain('owner@example.com');
      expect(t.logger.text()).not.toContain('configured-admin-password');
    } finally {
      await t.close();
    }
  });

  it('gets a random password, printed once, when none is configured', async () => {
    // A file rather than memory for SQLite: the second start must find the first one's users.
    const folder = mkdtempSync(join(tmpdir(), 'assetmap-'));
    const database = testingPostgres()
      ? await createTestDatabase()
      : { url: `sqlite:${join(folder, 'assets.sqlite')}`, drop: async () => {} };
    const env = { ADMIN_PASSWORD: '' };
    const first = await TestApp.start(env, database);
    let password: string;
    try {
      const printed = first.logger.lines.find((line) =>
        line.message.includes('generated password'),
      );
      expect(printed?.message).toContain(ADMIN_EMAIL);
      password = /generated password: (\S+)/.exec(printed!.message)![1];
      expect(password.length).toBeGreaterThanOrEqual(16);
      await first.login(ADMIN_EMAIL, password);
    } finally {
      await first.close();
    }

    const second = await TestApp.start(env, database);
    try {
      expect(second.logger.text()).not.toContain('generated password');
      expect(second.logger.text()).not.toContain(password);
      const users = await second.request('GET', '/api/users', {
        token: await second.login(ADMIN_EMAIL, password),
      });
      expect(users.body).toHaveLength(1);
    } finally {
      await second.close();
      await database.drop();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
