// Probes <base>/api/health every 20 ms until its stdin closes, then prints the slowest answer
// (ms). A process of its own: probing from the process that sends a large body would time that
// process's own stalls (at the start of each upload) as the service's.
import { request } from 'node:http';
import { performance } from 'node:perf_hooks';

const base = process.argv[2];
let done = false;
let worst = 0;
process.stdin.resume();
process.stdin.on('end', () => (done = true));

function probe() {
  return new Promise((resolve, reject) => {
    const req = request(`${base}/api/health`, { agent: false }, (res) => {
      res.resume();
      res.on('end', () =>
        res.statusCode === 200
          ? resolve()
          : reject(new Error(`/api/health answered ${res.statusCode}`)),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

// The first answer, not timed, tells the harness the probe is up: its start-up is not counted.
await probe();
process.stdout.write('ready\n');
while (!done) {
  const started = performance.now();
  await probe();
  worst = Math.max(worst, performance.now() - started);
  await new Promise((resolve) => setTimeout(resolve, 20));
}
process.stdout.write(`worst ${worst}\n`);
