import { errorCodes } from 'fastify';
import { Worker } from 'node:worker_threads';

/** Array items per message: each message is a short task for the event loop to take in. */
const ITEMS_PER_MESSAGE = 2_000;

/** The top-level arrays that may be long enough to need sending in parts. */
const PARTS = ['assets', 'relations'] as const;

type Part = (typeof PARTS)[number];

type WorkerMessage =
  | { invalid: true }
  | { head: unknown; parts: Part[] }
  | { part: Part; items: unknown[] }
  | { done: true };

/*
 * Runs in the worker, which is started from this source text, so that it needs no file of its
 * own beside the compiled one (the tests run the TypeScript sources). It parses, then hands the
 * result over one slice at a time, each on request: messages queued all at once would be taken
 * in by the main thread in one go, which is the blocking this avoids.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { bytes, parts: partNames, itemsPerMessage } = workerData;
let body;
try {
  body = JSON.parse(new TextDecoder().decode(bytes));
} catch {
  parentPort.postMessage({ invalid: true });
}
if (body !== undefined) {
  let head = body;
  const parts = [];
  if (Array.isArray(body)) head = [];
  else if (typeof body === 'object' && body !== null) {
    // No prototype, so that a "__proto__" key stays a key, as JSON.parse left it.
    head = Object.create(null);
    for (const key of Object.keys(body)) {
      const long = partNames.includes(key) && Array.isArray(body[key]);
      head[key] = long ? [] : body[key];
      if (long) parts.push(key);
    }
  }
  parentPort.postMessage({ head, parts });
  let part = 0;
  let start = 0;
  parentPort.on('message', () => {
    while (part < parts.length && start >= body[parts[part]].length) {
      part++;
      start = 0;
    }
    if (part === parts.length) return parentPort.postMessage({ done: true });
    const items = body[parts[part]].slice(start, start + itemsPerMessage);
    start += items.length;
    parentPort.postMessage({ part: parts[part], items });
  });
}
`;

/**
 * `JSON.parse` of a bulk body in a worker thread. Parsing 40 MB takes the better part of a
 * second, which on the main thread would hold up every other request (health probes among
 * them); here the main thread only hands the bytes over and takes in the result, a slice of
 * the long arrays at a time. Rejects as Fastify's own JSON parser does, so that the answer to
 * a malformed body is the same.
 */
export function parseJsonInWorker(bytes: Buffer): Promise<unknown> {
  // A buffer of its own is handed over without a copy; one cut from a shared pool is copied.
  const owned = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  const view = owned ? new Uint8Array(bytes.buffer) : new Uint8Array(bytes);
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { bytes: view, parts: PARTS, itemsPerMessage: ITEMS_PER_MESSAGE },
    transferList: [view.buffer as ArrayBuffer],
  });
  return new Promise<unknown>((resolve, reject) => {
    let body: Record<string, unknown>;
    const settle = (error: Error | null, value?: unknown) => {
      worker.removeAllListeners();
      void worker.terminate();
      if (error) reject(error);
      else resolve(value);
    };
    worker.on('message', (message: WorkerMessage) => {
      if ('invalid' in message) return settle(new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY());
      if ('done' in message) return settle(null, body);
      if ('head' in message) {
        if (message.parts.length === 0) return settle(null, message.head);
        body = message.head as Record<string, unknown>;
      } else {
        const items = body[message.part] as unknown[];
        for (const item of message.items) items.push(item);
      }
      worker.postMessage('next');
    });
    worker.on('error', (error) => settle(error));
    worker.on('exit', (code) => settle(new Error(`the JSON worker stopped with code ${code}`)));
  });
}
