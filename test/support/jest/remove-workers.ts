// Jest's globalTeardown: removes the folder of workers that build-workers.ts compiled for this
// run, named by the variable it set (Jest loads a global hook without the tests' module mapping,
// so the name cannot be imported from there).
import { rmSync } from 'node:fs';

export default function removeWorkers(): void {
  const workersDir = process.env.ASSET_MAP_TEST_WORKERS_DIR;
  if (workersDir) rmSync(workersDir, { recursive: true, force: true });
}
