import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestApp } from '../support/test-app.js';

const ROOT = process.cwd();
const CLIENT = join(ROOT, 'test/fixtures/openapi-client/client.ts');
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
// Generating the types and compiling against them takes seconds each, more on a busy machine.
const TYPE_CHECK_TIMEOUT_MS = 120_000;

type Document = { paths: Record<string, Record<string, unknown>>; components: any };

/** A program of the repository's node_modules, run with Node in `cwd`. */
function run(program: string, args: string[], cwd: string): { status: number; output: string } {
  const result = spawnSync(process.execPath, [join(ROOT, 'node_modules', program), ...args], {
    cwd,
    encoding: 'utf8',
  });
  return { status: result.status ?? 1, output: `${result.stdout}${result.stderr}` };
}

/**
 * The client fixture type-checked with `tsc --strict` against the types openapi-typescript
 * generates from `document`, both written to a folder of their own.
 */
function typeCheckClient(document: Document): { status: number; output: string } {
  const dir = mkdtempSync(join(tmpdir(), 'asset-map-client-'));
  try {
    writeFileSync(join(dir, 'openapi.json'), JSON.stringify(document));
    const generated = run(
      'openapi-typescript/bin/cli.js',
      ['openapi.json', '--output', 'schema.ts'],
      dir,
    );
    if (generated.status !== 0) throw new Error(`openapi-typescript: ${generated.output}`);
    copyFileSync(CLIENT, join(dir, 'client.ts'));
    return run(
      'typescript/bin/tsc',
      [
        ...['--ignoreConfig', '--strict', '--noEmit', '--target', 'ES2023'],
        ...['--module', 'nodenext', '--moduleResolution', 'nodenext', 'client.ts'],
      ],
      dir,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('A TypeScript client generated from the OpenAPI document', () => {
  let t: TestApp;
  let document: Document;

  beforeAll(async () => {
    t = await TestApp.start();
    const response = await t.request<Document>('GET', '/api/docs-json');
    if (response.status !== 200) throw new Error(`GET /api/docs-json: ${response.status}`);
    document = response.body;
  });
  afterAll(async () => {
    await t.close();
  });

  it('calls every documented operation', () => {
    const called = [...readFileSync(CLIENT, 'utf8').matchAll(/call\(\s*'(\w+)',\s*'([^']+)'/g)].map(
      ([, method, path]) => `${method} ${path}`,
    );
    const documented = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((method) => METHODS.includes(method))
        .map((method) => `${method} ${path}`),
    );
    expect(documented.length).toBeGreaterThan(30);
    expect(documented.filter((operation) => !called.includes(operation))).toEqual([]);
  });

  it(
    'type-checks with tsc --strict, an ingestion that gives only a source included',
    () => {
      const checked = typeCheckClient(document);
      expect(checked.output).toBe('');
      expect(checked.status).toBe(0);
    },
    TYPE_CHECK_TIMEOUT_MS,
  );

  it(
    'would not type-check if an ingestion option carried a default',
    () => {
      // A default makes openapi-typescript require the property: `{ source }` alone then fails.
      const withDefault = structuredClone(document);
      withDefault.components.schemas.IngestOptionsDto.properties.dryRun.default = false;
      const checked = typeCheckClient(withDefault);
      expect(checked.status).not.toBe(0);
      expect(checked.output).toMatch(/client\.ts\(\d+,\d+\): error TS\d+: .*'dryRun'/);
    },
    TYPE_CHECK_TIMEOUT_MS,
  );
});
