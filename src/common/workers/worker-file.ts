/**
 * The compiled module of a worker thread, `name`.js beside the module at `callerUrl` (pass
 * `import.meta.url`). One place for it, so that the tests, which run the TypeScript sources,
 * can point it at the workers they build first (see jest.config.js).
 */
export function workerFile(callerUrl: string, name: string): URL {
  return new URL(`./${name}.js`, callerUrl);
}
