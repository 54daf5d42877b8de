import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Runs a real entry point (src/main.ts by default, through ts-node) and returns how it ended. */
function runMain(env: Record<string, string>, entry = 'src/main.ts') {
  const result = spawnSync(process.execPath, ['--no-warnings', '--loader', 'ts-node/esm', entry], {
    env: { PATH: process.env.PATH, ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: result.status, stderr: result.stderr.trim(), stdout: result.stdout.trim() };
}

describe('start-up with a bad configuration', () => {
  it.each([
    [{ PORT: 'abc' }, /^Configuration error: PORT must be an integer/],
    [{ DATABASE_URL: 'mysql://localhost/x' }, /^Configuration error: DATABASE_URL must start with/],
    [
      { NODE_ENV: 'production', JWT_SECRET: 'short' },
      /^Configuration error: JWT_SECRET must be at least 32 characters/,
    ],
    [{ NODE_ENV: 'production' }, /^Configuration error: JWT_SECRET is required/],
  ])('%p stops the process with one line naming the variable', (env, message) => {
    const result = runMain(env);
    expect(result.status).toBe(1);
    expect(result.stderr.split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe('');
  });
});

describe('the migration entry point (src/migrate.ts)', () => {
  it('needs DATABASE_URL only, also when NODE_ENV=production', () => {
    const dir = mkdtempSync(join(tmpdir(), 'asset-map-migrate-'));
    try {
      const env = { NODE_ENV: 'production', DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}` };
      const first = runMain(env, 'src/migrate.ts');
      expect(first.stderr).toBe('');
      expect(first.status).toBe(0);
      expect(first.stdout).toMatch(/^Migrations applied: /);
      const again = runMain(env, 'src/migrate.ts');
      expect(again.status).toBe(0);
      expect(again.stdout).toBe('Migrations: the schema is up to date');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('stops with one line naming a bad DATABASE_URL', () => {
    const result = runMain({ DATABASE_URL: 'mysql://localhost/x' }, 'src/migrate.ts');
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/^Configuration error: DATABASE_URL must start with/);
  });
});
