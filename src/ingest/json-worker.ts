import { errorCodes } from 'fastify';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
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
  | { part: Part; text: string }
  | { done: true };

/*
 * Runs in the worker, which is started from this source text, so that it needs no file of its
 * own beside the compiled one (the tests run the TypeScript sources). It hands the long arrays
 * over one slice at a time, each on request: messages queued all at once would be taken in by
 * the main thread in one go, which is the blocking this avoids.
 *
 * A body that is an object is not parsed here but scanned: the scanner finds where the long
 * arrays' items begin and end (it follows strings and nesting, nothing more), so that each
 * slice goes over as the text of its items, which the main thread parses (a slice takes it a
 * few milliseconds, less than taking in the same objects by structured clone). The rest of the
 * body, with those arrays emptied, is parsed here: every character of the body is thus parsed
 * by JSON.parse, in the skeleton or in a slice. Anything the scanner does not expect (a body
 * that is not an object, a long array given twice, malformed JSON) goes through a plain
 * JSON.parse here instead, and its arrays are sent as objects.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { bytes, parts: partNames, itemsPerMessage } = workerData;
const text = new TextDecoder().decode(bytes);
const n = text.length;

function fail() {
  throw new SyntaxError('unexpected');
}
function skipWs(i) {
  for (;;) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 10 || c === 13 || c === 9) i++;
    else return i;
  }
}
function skipString(i) {
  let from = i + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote < 0) fail();
    let backslashes = 0;
    while (quote - backslashes - 1 >= from && text.charCodeAt(quote - backslashes - 1) === 92) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}
function skipValue(i) {
  const first = text.charCodeAt(i);
  if (first === 34) return skipString(i);
  if (first === 123 || first === 91) {
    let depth = 0;
    for (;;) {
      if (i >= n) fail();
      const c = text.charCodeAt(i);
      if (c === 34) {
        i = skipString(i);
        continue;
      }
      if (c === 123 || c === 91) depth++;
      else if (c === 125 || c === 93) {
        depth--;
        if (depth === 0) return i + 1;
      }
      i++;
    }
  }
  const start = i;
  for (;;) {
    const c = text.charCodeAt(i);
    if (i >= n || c === 44 || c === 125 || c === 93 || c === 32 || c === 10 || c === 13 || c === 9) break;
    i++;
  }
  if (i === start) fail();
  return i;
}
// Item ranges [start, end) of one long array, cut every itemsPerMessage items.
function scanArray(i, cuts) {
  i = skipWs(i + 1);
  if (text.charCodeAt(i) === 93) return i + 1;
  let start = i;
  let count = 0;
  for (;;) {
    i = skipWs(skipValue(i));
    count++;
    const c = text.charCodeAt(i);
    if (c === 93) {
      cuts.push([start, i]);
      return i + 1;
    }
    if (c !== 44) fail();
    if (count % itemsPerMessage === 0) {
      cuts.push([start, i]);
      start = i + 1;
    }
    i = skipWs(i + 1);
  }
}
// The body's skeleton, and the cuts of its long arrays; null when the body is not an object.
function scan() {
  let i = skipWs(0);
  if (text.charCodeAt(i) !== 123) return null;
  const skeleton = ['{'];
  const arrays = new Map();
  const keys = new Set();
  i = skipWs(i + 1);
  if (text.charCodeAt(i) !== 125) {
    for (;;) {
      if (text.charCodeAt(i) !== 34) fail();
      const keyStart = i;
      i = skipString(i);
      const rawKey = text.slice(keyStart, i);
      const key = JSON.parse(rawKey);
      // A key given twice: JSON.parse keeps the last; the plain path does the same.
      if (keys.has(key)) return null;
      keys.add(key);
      i = skipWs(i);
      if (text.charCodeAt(i) !== 58) fail();
      i = skipWs(i + 1);
      skeleton.push(rawKey, ':');
      if (partNames.includes(key) && text.charCodeAt(i) === 91) {
        const cuts = [];
        i = scanArray(i, cuts);
        arrays.set(key, cuts);
        skeleton.push('[]');
      } else {
        const start = i;
        i = skipValue(i);
        skeleton.push(text.slice(start, i));
      }
      i = skipWs(i);
      const c = text.charCodeAt(i);
      if (c === 125) break;
      if (c !== 44) fail();
      skeleton.push(',');
      i = skipWs(i + 1);
    }
  }
  if (skipWs(i + 1) !== n) fail();
  skeleton.push('}');
  return { body: JSON.parse(skeleton.join('')), arrays };
}

let scanned = null;
let body;
try {
  scanned = scan();
} catch {
  scanned = null;
}
try {
  body = scanned ? scanned.body : JSON.parse(text);
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
      const long = scanned ? scanned.arrays.has(key) : partNames.includes(key) && Array.isArray(body[key]);
      head[key] = long ? [] : body[key];
      if (long) parts.push(key);
    }
  }
  parentPort.postMessage({ head, parts });
  let part = 0;
  let start = 0;
  const length = (name) => (scanned ? scanned.arrays.get(name).length : body[name].length);
  parentPort.on('message', () => {
    while (part < parts.length && start >= length(parts[part])) {
      part++;
      start = 0;
    }
    if (part === parts.length) return parentPort.postMessage({ done: true });
    const name = parts[part];
    if (scanned) {
      const [from, to] = scanned.arrays.get(name)[start++];
      return parentPort.postMessage({ part: name, text: text.slice(from, to) });
    }
    const items = body[name].slice(start, start + itemsPerMessage);
    start += items.length;
    parentPort.postMessage({ part: name, items });
  });
}
`;

/** A slice's items from their text, as it stands in the body (items and commas). */
function itemsOf(text: string): unknown[] {
  try {
    return JSON.parse(`[${text}]`) as unknown[];
  } catch {
    throw new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY();
  }
}

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
        const next = receive();
        // Marked handled: a failure meanwhile is thrown by the await below, not as unhandled.
        next.catch(() => undefined);
        // A turn of the event loop between slices: without it a reply that comes quickly is
        // taken in the same turn as the slice before, and timers and sockets wait for both.
        await yieldToEventLoop();
        const message = await next;
        if ('done' in message) return;
        if (!('part' in message)) throw new Error('the JSON worker answered out of turn');
        yield 'text' in message ? { part: message.part, items: itemsOf(message.text) } : message;
      }
    } finally {
      close();
    }
  }
  if (first.parts.length === 0) close();
  return { head: first.head, slices: slices(), close };
}
