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
  // On a 2-core machine Jest runs the files in its own process (in band), so a handle one test
  // leaks (an intermittent one, that --detectOpenHandles may not show) would keep it alive after
  // the results, until CI's time runs out. The results are printed by then: exit with them.
  forceExit: true,
};
