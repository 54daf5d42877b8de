import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeIfAvailable } from '../support/requirements.js';
import { TestApp } from '../support/test-app.js';

/**
 * The README's tour, run as a reader runs it: its `bash` blocks in order, with bash, against a
 * service started on an empty store as the README says, and each answer compared with the one
 * shown after its block (`…` standing for anything).
 */

const README = readFileSync(join(process.cwd(), 'README.md'), 'utf8');
const README_URL = 'http://localhost:3000';
const WILDCARD = '…';

interface Step {
  script: string;
  /** The answer shown after the block: `json` compared as JSON, `text` line by line. */
  answer?: { lang: 'json' | 'text'; body: string };
}

function tourSection(): string {
  const start = README.indexOf('<!-- tour:start');
  const end = README.indexOf('<!-- tour:end -->');
  if (start < 0 || end < start) throw new Error('README.md has no tour:start ... tour:end section');
  return README.slice(start, end);
}

function tourSteps(): Step[] {
  const steps: Step[] = [];
  for (const [, lang, body] of tourSection().matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)) {
    if (lang === 'bash') steps.push({ script: body });
    else if ((lang === 'json' || lang === 'text') && steps.length > 0 && !steps.at(-1)!.answer) {
      steps.at(-1)!.answer = { lang, body };
    } else throw new Error(`unexpected \`\`\`${lang} block in the tour:\n${body}`);
  }
  return steps;
}

/** `…` stands for any run of characters. */
function pattern(expected: string): RegExp {
  const parts = expected.split(WILDCARD).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('.*')}$`, 's');
}

/** Where `actual` departs from `expected` (in which the string `…` matches any value), or null. */
function mismatch(expected: unknown, actual: unknown, path = '$'): string | null {
  if (expected === WILDCARD) return null;
  if (typeof expected === 'string' && expected.includes(WILDCARD)) {
    return typeof actual === 'string' && pattern(expected).test(actual)
      ? null
      : `${path}: ${JSON.stringify(actual)} does not match ${JSON.stringify(expected)}`;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) {
      return `${path}: ${JSON.stringify(actual)} is not an array of ${expected.length}`;
    }
    for (const [index, item] of expected.entries()) {
      const found = mismatch(item, actual[index], `${path}[${index}]`);
      if (found) return found;
    }
    return null;
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) {
      return `${path}: ${JSON.stringify(actual)} is not an object`;
    }
    const keys = Object.keys(expected);
    if (JSON.stringify(Object.keys(actual)) !== JSON.stringify(keys)) {
      return `${path}: keys ${Object.keys(actual).join(', ')} instead of ${keys.join(', ')}`;
    }
    for (const key of keys) {
      const found = mismatch(
        (expected as Record<string, unknown>)[key],
        (actual as Record<string, unknown>)[key],
        `${path}.${key}`,
      );
      if (found) return found;
    }
    return null;
  }
  return expected === actual
    ? null
    : `${path}: ${JSON.stringify(actual)} instead of ${JSON.stringify(expected)}`;
}

function answerMismatch(answer: NonNullable<Step['answer']>, output: string): string | null {
  if (answer.lang === 'json') {
    let actual: unknown;
    try {
      actual = JSON.parse(output);
    } catch {
      return `not JSON: ${output}`;
    }
    return mismatch(JSON.parse(answer.body), actual);
  }
  const expectedLines = answer.body.trimEnd().split('\n');
  const lines = output.split('\n');
  if (lines.length !== expectedLines.length)
    return `${lines.length} lines instead of ${expectedLines.length}:\n${output}`;
  const index = expectedLines.findIndex((line, i) => !pattern(line).test(lines[i]));
  return index < 0
    ? null
    : `line ${index + 1}: ${lines[index]} does not match ${expectedLines[index]}`;
}

interface BashRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the script from a file (stdin stays free for the blocks' own here-documents). */
function runBash(dir: string, script: string): Promise<BashRun> {
  const file = join(dir, `tour-${Date.now()}.sh`);
  writeFileSync(file, script);
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [file], {
      cwd: dir,
      env: { PATH: process.env.PATH, HOME: dir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const marker = (index: number) => `@@ end of tour step ${index} @@`;

// The tour's programs; without them it is skipped with a warning (in CI that fails instead).
const describeWithTools = await describeIfAvailable({ commands: ['bash', 'curl', 'jq'] });

describeWithTools('the README tour', () => {
  const steps = tourSteps();
  // The start command the tour gives: the password the blocks log in with.
  const password = /ADMIN_PASSWORD=(\S+) npm start/.exec(README)?.[1];
  let t: TestApp;
  let dir: string;

  beforeAll(async () => {
    t = await TestApp.start({ ADMIN_PASSWORD: password ?? '' });
    dir = mkdtempSync(join(tmpdir(), 'asset-map-tour-'));
  });
  afterAll(async () => {
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const forThisService = (script: string) => script.replaceAll(README_URL, t.baseUrl);

  it('is a series of bash blocks on an empty store, started with a password the tour logs in with', () => {
    expect(password).toBeDefined();
    expect(README).toContain(`DATABASE_URL=sqlite::memory: ADMIN_PASSWORD=${password} npm start`);
    expect(steps.length).toBeGreaterThanOrEqual(10);
    expect(steps[0].script).toMatch(/^set -euo pipefail\n/);
    expect(steps[0].script).toContain(`"password":"${password}"`);
  });

  it('runs in order, each block answering as the README shows', async () => {
    const script = steps
      .map((step, index) => `${forThisService(step.script)}printf '\\n%s\\n' '${marker(index)}'\n`)
      .join('');
    const run = await runBash(dir, script);

    // Each block that ran to its end is compared; a failure names the block that stopped.
    let rest = run.stdout;
    const problems: string[] = [];
    let stoppedIn: string | null = null;
    for (const [index, step] of steps.entries()) {
      const end = rest.indexOf(`\n${marker(index)}\n`);
      if (end < 0) {
        stoppedIn = `step ${index + 1}: ${step.script}`;
        break;
      }
      const output = rest.slice(0, end).replace(/^\n+/, '').trimEnd();
      rest = rest.slice(end + marker(index).length + 2);
      const problem = step.answer ? answerMismatch(step.answer, output) : null;
      if (problem) problems.push(`step ${index + 1} (${step.script.split('\n')[0]}): ${problem}`);
    }
    expect({
      code: run.code,
      stderr: run.code === 0 ? '' : run.stderr,
      stoppedIn,
      problems,
    }).toEqual({ code: 0, stderr: '', stoppedIn: null, problems: [] });
  });

  it('stops at a failed login with a message, before any other request', async () => {
    const wrong = forThisService(steps[0].script).replace(
      `"password":"${password}"`,
      '"password":"not-the-password"',
    );
    const run = await runBash(dir, `${wrong}echo "still running with TOKEN=$TOKEN"\n`);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('Invalid e-mail or password');
    expect(run.stderr).toContain('Login failed');
  });
});
