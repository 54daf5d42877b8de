// Jest on Node 20 cannot require() an ES module, which @nestjs/throttler (CommonJS) does with
// @nestjs/common and @nestjs/core (ESM only since Nest 12); Node itself can. This rewrites those
// requires to the very module instances that esm-preload.ts imported, so that one copy of each
// exists, as in production. Only @nestjs/throttler's files pass through here.
const ESM_ONLY = ['@nestjs/common', '@nestjs/core'];

module.exports = {
  process(source) {
    let code = source;
    for (const name of ESM_ONLY) {
      code = code
        .split(`require("${name}")`)
        .join(`globalThis.__jestEsmModules[${JSON.stringify(name)}]`);
    }
    return { code };
  },
};
