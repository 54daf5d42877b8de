import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';

/** Starts the real entry point (src/main.ts, through ts-node) and returns how it ended. */
function runMain(env: Record<string, string>) {
  const result = spawnSync(
    process.execPath,
    ['--no-warnings', '--loader', 'ts-node/esm', 'src/main.ts'],
    {
      env: { PATH: process.env.PATH, ...env },
      encoding: 'utf8',
      timeout: 60_000,
    },
  );
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
