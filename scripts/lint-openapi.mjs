// npm run lint:openapi (part of npm run check): the OpenAPI document as the service serves it,
// linted with Redocly's recommended ruleset (redocly.yaml). The service is compiled as
// `npm run build` compiles it and built in this process on an in-memory SQLite database; the
// document is asked of it with Fastify's inject, so no server listens and nothing leaves the
// machine.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = new URL('..', import.meta.url).pathname;
// Under node_modules, so that the compiled modules find the packages; kept between runs, so
// that tsc's incremental build only compiles what changed.
const cache = join(root, 'node_modules/.cache/asset-map-openapi');
const dist = join(cache, 'dist');

function run(command, args, env = process.env) {
  const result = spawnSync(process.execPath, [join(root, command), ...args], {
    cwd: root,
    env,
    stdio: 'inherit',
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

mkdirSync(cache, { recursive: true });
// The compiled config reads the version from ../package.json, as dist/ does.
copyFileSync(join(root, 'package.json'), join(cache, 'package.json'));
run('node_modules/typescript/bin/tsc', [
  '-p',
  'tsconfig.build.json',
  '--outDir',
  dist,
  '--incremental',
  '--tsBuildInfoFile',
  join(cache, 'build.tsbuildinfo'),
]);

const { createApp } = await import(pathToFileURL(join(dist, 'app.factory.js')).href);
const { loadConfig } = await import(pathToFileURL(join(dist, 'config/app-config.js')).href);
const logLines = [];
const app = await createApp(loadConfig({ DATABASE_URL: 'sqlite::memory:' }), {
  logStream: { write: (line) => void logLines.push(line) },
});
let response;
try {
  response = await app.inject({ method: 'GET', url: '/api/docs-json' });
} finally {
  await app.close();
}
if (response.statusCode !== 200) {
  process.stderr.write(logLines.join(''));
  throw new Error(`GET /api/docs-json answered ${response.statusCode}: ${response.body}`);
}

const work = mkdtempSync(join(tmpdir(), 'asset-map-openapi-'));
try {
  const file = join(work, 'openapi.json');
  writeFileSync(file, JSON.stringify(JSON.parse(response.body), null, 2));
  run(
    'node_modules/@redocly/cli/bin/cli.js',
    ['lint', file, '--config', join(root, 'redocly.yaml')],
    // Redocly's documented opt-outs: no usage data sent, no check for a newer version.
    { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
