import { gzipSync } from 'node:zlib';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig, type Plugin } from 'vite';

/** Writes a .gz beside each script and style sheet: the server sends it to browsers that take gzip. */
function gzipFiles(): Plugin {
  let outDir = '';
  return {
    name: 'asset-map-gzip',
    apply: 'build',
    configResolved(config) {
      outDir = join(config.root, config.build.outDir);
    },
    closeBundle() {
      const dir = join(outDir, 'static');
      for (const file of readdirSync(dir)) {
        if (!/\.(js|css)$/.test(file)) continue;
        writeFileSync(
          join(dir, `${file}.gz`),
          gzipSync(readFileSync(join(dir, file)), { level: 9 }),
        );
      }
    },
  };
}

export default defineConfig({
  root: import.meta.dirname,
  // Hashed files under /static/, which the server caches for a year; /assets/… is the UI's own route.
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'static',
    // The polyfill would be a script of its own; every supported browser preloads modules.
    modulePreload: { polyfill: false },
    target: 'es2022',
  },
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  plugins: [gzipFiles()],
  server: { proxy: { '/api': 'http://127.0.0.1:3000' } },
});
