// Webhooks: the first ingestion of COUNT assets and COUNT relations with a webhook subscribed to
// `asset.created` (COUNT events, each with its delivery, written in the ingestion's transaction
// and sent meanwhile) against the same ingestion on a service without webhooks, in paired rounds
// on emptied stores. Then the COUNT deliveries made pending again, drained to a receiver on the
// loopback (in this process: it counts and answers 204) against a bare Node client posting the
// same signed messages to it with as many in flight; the worst /api/health answer during the
// drain; the service's peak memory.
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { healthProbe, ingest, limitRow, medianRound, ratioRow } from '../harness.mjs';
import { openRaw } from '../lib.mjs';

const { Webhook } = createRequire(import.meta.url)('standardwebhooks');

/**
 * The messages the service has in flight to one webhook: one, as it sends a webhook's
 * deliveries one after another, in the events' order (docs/api.md, Delivery). The bare client
 * has as many.
 */
const IN_FLIGHT = 1;

/**
 * A receiver on the loopback that answers 204 and counts the distinct `webhook-id`s it gets:
 * `expect(n)` resolves, once n have come, to the milliseconds from the first to the last; the
 * first message is kept, for its signature to be checked.
 */
async function startReceiver() {
  let ids = new Set();
  let first = null;
  let started = 0;
  let wanted = Infinity;
  let done = () => undefined;
  const server = createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      response.statusCode = 204;
      response.end();
      if (ids.size === 0) {
        started = performance.now();
        first ??= { headers: request.headers, body: Buffer.concat(chunks).toString() };
      }
      ids.add(request.headers['webhook-id']);
      if (ids.size === wanted) done(performance.now() - started);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/hook`,
    first: () => first,
    expect(n) {
      ids = new Set();
      wanted = n;
      return new Promise((resolve) => (done = resolve));
    },
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

/** The outbox emptied, beside the ingested tables the harness empties. */
async function wipeOutbox(url) {
  const db = openRaw(url);
  try {
    await db.exec('DELETE FROM webhook_deliveries');
    await db.exec('DELETE FROM webhook_events');
  } finally {
    await db.close();
  }
}

/** The webhook disabled by SQL and its deliveries made pending again, as before any attempt. */
async function backlog(url, webhookId) {
  const db = openRaw(url);
  try {
    const no = db.kind === 'postgres' ? false : 0;
    await db.run('UPDATE webhooks SET enabled = ?, claimed_until = NULL WHERE id = ?', [
      no,
      webhookId,
    ]);
    await db.run(
      `UPDATE webhook_deliveries SET status = 'pending', attempts = 0, last_attempt_at = NULL,
         response_status = NULL, last_error = NULL, next_attempt_at = ?
       WHERE webhook_id = ?`,
      [db.timestamp(new Date()), webhookId],
    );
  } finally {
    await db.close();
  }
}

/** A process run to its end: what it printed; rejects unless it exits with 0. */
function child(command, args) {
  return new Promise((resolve, reject) => {
    const process = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    process.stdout.on('data', (chunk) => (out += chunk));
    process.on('error', reject);
    process.on('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${args[0]} exited with ${code}`)),
    );
  });
}

async function request(service, method, path, body) {
  const response = await fetch(`${service.base}${path}`, {
    method,
    headers: { ...service.auth, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = await response.json();
  if (!response.ok)
    throw new Error(`${method} ${path} answered ${response.status}: ${answer.error}`);
  return answer;
}

export default {
  name: 'webhooks',
  async run(h, { count, payload }) {
    // Three rounds (their median), the order of the sides alternating: a single round's ratio
    // moves with which side runs second (bench/README.md).
    const rounds = 3;
    const { body } = payload(count);
    const receiver = await startReceiver();
    const { url: serviceDb, service } = await h.freshService('webhooks', {
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOW_PRIVATE: 'true',
    });
    const { url: plainDb, service: plain } = await h.freshService('webhooks_plain');
    try {
      const webhook = await request(service, 'POST', '/api/webhooks', {
        url: receiver.url,
        events: ['asset.created'],
      });
      const results = [];
      let worstHealthMs = 0;
      for (let round = 0; round < rounds; round++) {
        const result = {};
        const withWebhook = async () => {
          await h.wipe(serviceDb);
          await wipeOutbox(serviceDb);
          const sent = receiver.expect(count);
          const cpu = service.cpuMs();
          result.first = (await ingest(service, body)).ms;
          result.firstCpu = service.cpuMs() - cpu;
          // Sent while it ran, and after: all of them, before the drain is timed.
          await sent;
        };
        const without = async () => {
          await h.wipe(plainDb);
          const cpu = plain.cpuMs();
          result.firstPlain = (await ingest(plain, body)).ms;
          result.firstPlainCpu = plain.cpuMs() - cpu;
        };
        const drain = async () => {
          await backlog(serviceDb, webhook.id);
          const drained = receiver.expect(count);
          const probe = await healthProbe(service.base);
          const cpu = service.cpuMs();
          await request(service, 'PUT', `/api/webhooks/${webhook.id}`, { enabled: true });
          result.drainMs = await drained;
          result.drainCpu = service.cpuMs() - cpu;
          worstHealthMs = Math.max(worstHealthMs, await probe.stop());
        };
        const bare = async () => {
          const drained = receiver.expect(count);
          // Not a synchronous call: the receiver answers in this process.
          const out = await child(process.execPath, [
            join(h.root, 'bench/baseline-webhooks.mjs'),
            serviceDb,
            webhook.id,
            webhook.secret,
            receiver.url,
            String(IN_FLIGHT),
          ]);
          result.bareMs = await drained;
          result.bareCpu = Number(out.trim().split(' ')[1]);
        };
        // Which side goes first alternates: neither always runs just after the other.
        if (round % 2 === 0) {
          await without();
          await withWebhook();
          await bare();
          await drain();
        } else {
          await withWebhook();
          await without();
          await drain();
          await bare();
        }
        result.drainRate = count / (result.drainMs / 1000);
        result.bareRate = count / (result.bareMs / 1000);
        results.push(result);
        h.log(
          `  webhooks round ${round + 1}: ${JSON.stringify(result, (_k, v) => (typeof v === 'number' ? Math.round(v) : v))}`,
        );
      }
      // The service's messages verify with the specification's own library.
      const first = receiver.first();
      new Webhook(webhook.secret).verify(first.body, first.headers);
      const size = `${count / 1000}k + ${count / 1000}k`;
      const median = medianRound(results, (r) => r.drainRate / r.bareRate);
      const ratio = median.drainRate / median.bareRate;
      return {
        rows: [
          ratioRow(
            `first ingestion ${size}, a webhook on asset.created / the same without webhooks (ms)`,
            results,
            'first',
            'firstPlain',
            1.2,
          ),
          {
            figure: `drain of ${count / 1000}k deliveries to a loopback receiver / bare Node client, ${IN_FLIGHT} in flight (messages/s)`,
            service: median.drainRate,
            baseline: median.bareRate,
            ratio,
            target: '>= 0.5',
            pass: ratio >= 0.5,
            rounds: results.map((r) => r.drainRate / r.bareRate),
          },
          // The same figures by the processes' own CPU time, which other jobs on the machine
          // move less than the clock (the database server's is not counted on PostgreSQL).
          ratioRow(
            `first ingestion ${size}, CPU time of the service, a webhook / none (ms)`,
            results,
            'firstCpu',
            'firstPlainCpu',
          ),
          ratioRow(
            `drain of ${count / 1000}k deliveries, CPU time of the service / bare Node client (ms)`,
            results,
            'drainCpu',
            'bareCpu',
          ),
          limitRow('worst /api/health answer during the drain (ms)', worstHealthMs, 250),
          limitRow(`peak RSS of the service, ${size} and the drain (MB)`, service.peakRssMb(), 600),
        ],
        detail: { rounds: results },
      };
    } finally {
      await service.stop();
      await plain.stop();
      await receiver.close();
    }
  },
};
