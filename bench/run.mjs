// npm run bench [-- --quick] [-- --stage=ingest,http]: builds the service, runs each stage of
// bench/stages/ (each starts the built service as production does, on fresh databases, and
// measures it against baselines of the same run), prints one table with the targets and writes
// it as JSON to bench/results/. BENCH_DATABASE_URL=postgres://... (npm run bench:pg) runs it on
// PostgreSQL; SQLite otherwise.
import { execSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { createHarness } from './harness.mjs';
import { makePayload } from './lib.mjs';
import { stages } from './stages/index.mjs';

const quick = process.argv.includes('--quick');
const only = process.argv
  .find((a) => a.startsWith('--stage='))
  ?.slice('--stage='.length)
  .split(',');
const COUNT = quick ? 10_000 : 100_000;
const pgUrl = process.env.BENCH_DATABASE_URL;
const database = pgUrl ? 'postgres' : 'sqlite';
const root = new URL('..', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'assetmap-bench-'));
const log = (message) => console.log(`[bench] ${message}`);

const selected = only ? stages.filter((s) => only.includes(s.name)) : stages;
if (only && selected.length !== only.length)
  throw new Error(`unknown stage in ${only}; stages: ${stages.map((s) => s.name)}`);
// Before the first stage: a full run takes most of an hour, and its table is printed at the end.
const missing = selected.map((s) => s.missing?.()).filter(Boolean);
if (missing.length) throw new Error(missing.join('; '));

/** The scanner payload of `count` assets, written once: its file and its bytes. */
const payloads = new Map();
function payload(count) {
  if (!payloads.has(count)) {
    const file = join(work, `payload-${count}.json`);
    writeFileSync(file, JSON.stringify(makePayload(count)));
    payloads.set(count, { file, body: readFileSync(file) });
  }
  return payloads.get(count);
}

const fmt = (v, digits) =>
  v === null || v === undefined ? '' : v.toFixed(digits ?? (Math.abs(v) < 100 ? 1 : 0));
const verdict = (pass) => (pass === null ? '' : pass ? 'PASS' : 'FAIL');

async function main() {
  const machine = {
    cores: cpus().length,
    cpu: cpus()[0]?.model,
    memoryGb: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    loadAverageAtStart: loadavg()[0],
  };
  log(`${quick ? 'quick' : 'full'} run on ${database}, stages ${selected.map((s) => s.name)}`);
  log(
    `${machine.cores} cores (${machine.cpu}), load average ${machine.loadAverageAtStart.toFixed(2)}`,
  );
  execSync('npm run build', { cwd: root, stdio: 'ignore' });
  const harness = createHarness({ root, work, pgUrl, log });
  const results = {};
  const started = Date.now();
  try {
    for (const stage of selected) {
      const stageStarted = Date.now();
      log(`stage ${stage.name}`);
      results[stage.name] = await stage.run(harness, { quick, count: COUNT, payload });
      results[stage.name].seconds = (Date.now() - stageStarted) / 1000;
    }
  } finally {
    await harness.cleanup();
  }
  machine.loadAverageAtEnd = loadavg()[0];

  const lines = [
    `| Stage | Figure | Service | Baseline | Ratio | Target | Result |`,
    '| --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const [name, { rows }] of Object.entries(results))
    for (const r of rows)
      lines.push(
        `| ${name} | ${r.figure} | ${fmt(r.service)} | ${fmt(r.baseline)} | ${fmt(r.ratio, 2)} | ${r.target ?? ''} | ${verdict(r.pass)} |`,
      );
  console.log(`\n${lines.join('\n')}\n`);
  const failed = Object.values(results).flatMap((s) => s.rows.filter((r) => r.pass === false));
  log(
    `${failed.length ? `${failed.length} FAIL` : 'all PASS'} in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );

  mkdirSync(join(root, 'bench/results'), { recursive: true });
  const date = new Date().toISOString();
  const file = join(
    root,
    'bench/results',
    `${date.replace(/[:.]/g, '-')}-${database}${quick ? '-quick' : ''}.json`,
  );
  const summary = { date, database, quick, count: COUNT, machine, stages: results };
  writeFileSync(file, `${JSON.stringify(summary, null, 2)}\n`);
  log(`results written to ${file}`);
  // A quick run's small bodies say little about the targets: it fails only by crashing.
  process.exitCode = failed.length && !quick ? 1 : 0;
}

try {
  await main();
} finally {
  rmSync(work, { recursive: true, force: true });
}
