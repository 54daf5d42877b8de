// Loads the ESM-only packages that CommonJS dependencies require() before any test module links, for esm-globals-transformer.cjs.
const modules = {
  '@nestjs/common': await import('@nestjs/common'),
  '@nestjs/core': await import('@nestjs/core'),
};
(globalThis as { __jestEsmModules?: typeof modules }).__jestEsmModules = modules;

export {};
