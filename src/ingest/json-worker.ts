import { errorCodes } from 'fastify';
import { Worker } from 'node:worker_threads';

/** Array items per message: each message is a short task for the event loop to take in. */
const ITEMS_PER_MESSAGE = 2_000;

/** The top-level arrays that may be long enough to need sending in parts. */
const PARTS = ['assets', 'relations'] as const;

export type Part = (typeof PARTS)[number];

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

/** Part of one of the body's long arrays, in order. */
export interface JsonSlice {
  part: Part;
  items: unknown[];
}

/** A body parsed in a worker: its top level now, its long arrays slice by slice. */
export interface JsonInWorker {
  /** The body, with each array named in PARTS empty: `slices` holds its items. */
  head: unknown;
  slices: AsyncIterable<JsonSlice>;
  /** Stops the worker, whether or not every slice was taken. */
  close(): void;
}

type Receive = () => Promise<WorkerMessage>;

/** The worker's next message; the protocol has at most one outstanding. */
function receiver(worker: Worker): Receive {
  let waiting: { resolve(message: WorkerMessage): void; reject(error: Error): void } | null = null;
  let failure: Error | null = null;
  const fail = (error: Error) => {
    failure ??= error;
    waiting?.reject(failure);
    waiting = null;
  };
  worker.on('message', (message: WorkerMessage) => {
    waiting?.resolve(message);
    waiting = null;
  });
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`the JSON worker stopped with code ${code}`)));
  return () =>
    failure
      ? Promise.reject(failure)
      : new Promise<WorkerMessage>((resolve, reject) => (waiting = { resolve, reject }));
}

/**
 * `JSON.parse` of a bulk body in a worker thread. Parsing 40 MB takes the better part of a
 * second, which on the main thread would hold up every other request (health probes among
 * them); here the main thread only hands the bytes over and takes in the result a slice of the
 * long arrays at a time, so that each slice can be checked and let go before the next comes.
 * Rejects as Fastify's own JSON parser does, so that the answer to a malformed body is the same.
 */
export async function openJsonInWorker(bytes: Buffer): Promise<JsonInWorker> {
  // A buffer of its own is handed over without a copy; one cut from a shared pool is copied.
  const owned = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  const view = owned ? new Uint8Array(bytes.buffer) : new Uint8Array(bytes);
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { bytes: view, parts: PARTS, itemsPerMessage: ITEMS_PER_MESSAGE },
    transferList: [view.buffer as ArrayBuffer],
  });
  const receive = receiver(worker);
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    worker.removeAllListeners();
    // Errors and exit are no longer of interest, but must not go unhandled.
    worker.on('error', () => undefined);
    void worker.terminate();
  };
  let first: WorkerMessage;
  try {
    first = await receive();
  } catch (error) {
    close();
    throw error;
  }
  if ('invalid' in first) {
    close();
    throw new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY();
  }
  if (!('head' in first)) {
    close();
    throw new Error('the JSON worker answered out of turn');
  }
  async function* slices(): AsyncGenerator<JsonSlice> {
    try {
      while (!closed) {
        worker.postMessage('next');
        const message = await receive();
        if ('done' in message) return;
        if (!('part' in message)) throw new Error('the JSON worker answered out of turn');
        yield message;
      }
    } finally {
      close();
    }
  }
  if (first.parts.length === 0) close();
  return { head: first.head, slices: slices(), close };
}
