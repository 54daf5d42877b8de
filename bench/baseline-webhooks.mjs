// Baseline for the webhook drain: a bare Node client posting the messages of one webhook's
// deliveries, signed as Standard Webhooks signs them, to the same receiver, in the deliveries'
// order, with the given number in flight. Usage: node bench/baseline-webhooks.mjs <database url>
// <webhook id> <secret whsec_...> <receiver url> <in flight>; prints the milliseconds from the
// first post to the last answer, then the CPU time this process used meanwhile (ms; the
// messages are read from the database before).
import { Buffer } from 'node:buffer';
import { createHmac } from 'node:crypto';
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { openRaw } from './lib.mjs';

const [url, webhookId, secret, target, inFlight] = process.argv.slice(2);
const db = openRaw(url);
const messages = await db.all(
  `SELECT e.id, e.body FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
   WHERE d.webhook_id = ? ORDER BY d.id`,
  [webhookId],
);
await db.close();
const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
const agent = new Agent({ keepAlive: true, maxSockets: Number(inFlight) });

function post({ id, body }) {
  const timestamp = Math.floor(Date.now() / 1000);
  const signature = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  const bytes = Buffer.from(body);
  return new Promise((resolve, reject) => {
    const req = request(
      target,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': String(bytes.length),
          'webhook-id': id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': `v1,${signature}`,
        },
      },
      (res) => {
        res.on('data', () => undefined);
        res.on('end', () =>
          res.statusCode >= 200 && res.statusCode < 300
            ? resolve()
            : reject(new Error(`the receiver answered ${res.statusCode}`)),
        );
      },
    );
    req.on('error', reject);
    req.end(bytes);
  });
}

const started = performance.now();
const cpu = process.cpuUsage();
let next = 0;
await Promise.all(
  Array.from({ length: Number(inFlight) }, async () => {
    while (next < messages.length) await post(messages[next++]);
  }),
);
const used = process.cpuUsage(cpu);
process.stdout.write(`${performance.now() - started} ${(used.user + used.system) / 1000}\n`);
agent.destroy();
