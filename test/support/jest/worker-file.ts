import { relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { WORKERS_DIR_VARIABLE } from './build-workers.js';

/**
 * Stands in for src/common/workers/worker-file.ts in the tests (jest.config.js): the worker
 * `name` beside the module at `callerUrl`, as build-workers.js compiled it.
 */
export function workerFile(callerUrl: string, name: string): URL {
  const dir = relative('src', fileURLToPath(new URL('.', callerUrl)));
  return pathToFileURL(`${process.env[WORKERS_DIR_VARIABLE]}/${dir}/${name}.js`);
}
