// Jest on Node 20 cannot require() an ES module; Node itself can. @nestjs/throttler (CommonJS)
// requires @nestjs/common and @nestjs/core (ESM only since Nest 12). This rewrites those requires
// to the very module instances that esm-preload.ts imported, so that one copy of each exists, as
// in production. Only that package's files pass through here (jest.config.js).
const ESM_ONLY = ['@nestjs/common', '@nestjs/core'];

module.exports = {
  process(source) {
    let code = source;
    for (const name of ESM_ONLY) {
      const instance = `globalThis.__jestEsmModules[${JSON.stringify(name)}]`;
      code = code
        .split(`require("${name}")`)
        .join(instance)
        .split(`require('${name}')`)
        .join(instance);
    }
    return { code };
  },
};
