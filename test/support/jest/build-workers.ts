// Jest's globalSetup: worker threads run outside Jest's transform, so the tests cannot start
// them from their TypeScript sources. They are compiled here, with tsc as `npm run build`
// compiles them, into WORKERS_DIR; worker-file.ts (mapped in jest.config.js) points there.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where the tests' worker threads are compiled to (buildWorkers). */
export const WORKERS_DIR = join(process.cwd(), 'node_modules/.cache/asset-map-workers');

/** Every worker thread's module. */
export const WORKER_SOURCES = [
  'src/ingest/parse/json-parse.worker.ts',
  'src/ingest/apply/sqlite-writer.worker.ts',
  'src/database/sqlite-checkpoint.worker.ts',
];

export default function buildWorkers(): void {
  rmSync(WORKERS_DIR, { recursive: true, force: true });
  mkdirSync(WORKERS_DIR, { recursive: true });
  const tsc = spawnSync(
    process.execPath,
    [
      'node_modules/typescript/bin/tsc',
      '--ignoreConfig',
      '--outDir',
      WORKERS_DIR,
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
      ...WORKER_SOURCES,
    ],
    { encoding: 'utf8' },
  );
  if (tsc.status !== 0) throw new Error(`building the workers failed:\n${tsc.stdout}${tsc.stderr}`);
  // Below node_modules, Node looks no further up for the package's "type": "module".
  writeFileSync(join(WORKERS_DIR, 'package.json'), '{ "type": "module" }\n');
}
