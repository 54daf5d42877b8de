// Nest 12 packages are ES modules only, so Jest runs in its native ESM mode
// (node --experimental-vm-modules, see the test script) with ts-jest emitting ESM.
/** @type {import('jest').Config} */
export default {
  rootDir: '.',
  testEnvironment: 'node',
  testRegex: '(src/.*\\.spec|test/.*\\.e2e-spec)\\.ts$',
  moduleFileExtensions: ['ts', 'js', 'json'],
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: {
    // Worker threads run outside Jest's transform: they start from the modules that globalSetup
    // compiles with tsc (build-workers.ts), found through this stand-in for worker-file.ts.
    '^(\\.{1,2}/)+common/workers/worker-file\\.js$': '<rootDir>/test/support/jest/worker-file.ts',
    // Sources import with .js extensions, as Node's ESM resolution requires.
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  globalSetup: '<rootDir>/test/support/jest/build-workers.ts',
  globalTeardown: '<rootDir>/test/support/jest/remove-workers.ts',
  setupFiles: ['<rootDir>/test/support/jest/esm-preload.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true }],
    'node_modules/@nestjs/throttler/.+\\.js$':
      '<rootDir>/test/support/jest/esm-globals-transformer.cjs',
  },
  transformIgnorePatterns: ['/node_modules/(?!@nestjs/throttler/)'],
  // Where tests that run the service as a process keep its build (test/support/service-process.ts).
  modulePathIgnorePatterns: ['<rootDir>/.e2e-dist/'],
  testTimeout: 30_000,
  // The files run one at a time in a worker process, replaced once it holds more than this after a
  // file: run in Jest's own process, every file's modules stayed reachable and its heap grew past
  // 4 GB over the suite, each file slower than the one before.
  maxWorkers: 1,
  workerIdleMemoryLimit: '1GB',
  // A handle one test leaks (an intermittent one, that --detectOpenHandles may not show) would
  // keep Jest alive after the results, until CI's time runs out. The results are printed by
  // then: exit with them.
  forceExit: true,
};
