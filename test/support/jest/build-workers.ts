// Jest's globalSetup: worker threads run outside Jest's transform, so the tests cannot start
// them from their TypeScript sources. They are compiled here, with tsc as `npm run build`
// compiles them, into a folder of this run's own (two runs in one checkout must not share one),
// named to the test processes by WORKERS_DIR_VARIABLE; worker-file.ts (mapped in
// jest.config.js) points there, and remove-workers.ts removes it after the run.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The environment variable naming this run's folder of compiled workers. */
export const WORKERS_DIR_VARIABLE = 'ASSET_MAP_TEST_WORKERS_DIR';

/** Every worker thread's module. */
export const WORKER_SOURCES = [
  'src/ingest/parse/json-parse.worker.ts',
  'src/ingest/parse/scanner-parse.worker.ts',
  'src/database/sqlite/sqlite-writer.worker.ts',
  'src/database/sqlite/sqlite-lookups.worker.ts',
];

export default function buildWorkers(): void {
  const root = join(process.cwd(), 'node_modules/.cache/asset-map-workers');
  mkdirSync(root, { recursive: true });
  const workersDir = mkdtempSync(join(root, 'run-'));
  // Set before Jest starts its test processes, which inherit it.
  process.env[WORKERS_DIR_VARIABLE] = workersDir;
  const tsc = spawnSync(
    process.execPath,
    [
      'node_modules/typescript/bin/tsc',
      '--ignoreConfig',
      '--outDir',
      workersDir,
      '--rootDir',
      'src',
      '--module',
      'nodenext',
      '--moduleResolution',
      'nodenext',
      '--target',
      'ES2023',
      '--types',
      'node',
      '--skipLibCheck',
      '--strict',
      '--esModuleInterop',
      // As tsconfig.json: a worker's types may reach an entity (a column table is typed by it).
      '--experimentalDecorators',
      '--strictPropertyInitialization',
      'false',
      '--useDefineForClassFields',
      'false',
      ...WORKER_SOURCES,
    ],
    { encoding: 'utf8' },
  );
  if (tsc.status !== 0) throw new Error(`building the workers failed:\n${tsc.stdout}${tsc.stderr}`);
  // Below node_modules, Node looks no further up for the package's "type": "module".
  writeFileSync(join(workersDir, 'package.json'), '{ "type": "module" }\n');
}
