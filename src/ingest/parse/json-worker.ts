import { errorCodes } from 'fastify';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { InvalidInputError } from '../../common/errors/invalid-input.error.js';
import { MAX_BODY_DEPTH } from '../../common/json-depth.js';
import { workerFile } from '../../common/workers/worker-file.js';
import { receiver, terminator, transferable } from '../../common/workers/worker-messages.js';
import {
  NEXT_SLICE,
  type JsonParseAnswer,
  type JsonParseWorkerData,
  type Part,
} from './json-parse.messages.js';
import { JSON_ITEMS_PER_MESSAGE } from '../../database/ingest-tuning.js';

const WORKER = workerFile(import.meta.url, 'json-parse.worker');

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
  /** Stops the worker, whether or not every slice was taken; resolves once it has exited. */
  close(): Promise<void>;
}

/**
 * `JSON.parse` of a bulk body in a worker thread. Parsing a bulk body takes long enough that,
 * on the main thread, it would hold up every other request (health probes among them); here
 * the main thread only hands the bytes over and takes in the result a slice of the long arrays
 * at a time, so that each slice can be checked and let go before the next comes.
 * Rejects as Fastify's own JSON parser does, so that the answer to a malformed body is the same.
 */
export async function openJsonInWorker(bytes: Buffer): Promise<JsonInWorker> {
  const view = transferable(bytes);
  const workerData: JsonParseWorkerData = {
    bytes: view,
    itemsPerMessage: JSON_ITEMS_PER_MESSAGE,
    maxDepth: MAX_BODY_DEPTH,
  };
  const worker = new Worker(WORKER, { workerData, transferList: [view.buffer as ArrayBuffer] });
  const receive = receiver<JsonParseAnswer>(worker, 'JSON worker');
  const terminate = terminator(worker);
  let closed = false;
  const close = () => {
    closed = true;
    return terminate();
  };
  let first: JsonParseAnswer;
  try {
    first = await receive();
  } catch (error) {
    await close();
    throw error;
  }
  if ('invalid' in first) {
    await close();
    // The same answers as the JSON parser of every other route.
    throw first.invalid === 'json'
      ? new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY()
      : new InvalidInputError(`body nests deeper than ${MAX_BODY_DEPTH} levels`);
  }
  if (!('head' in first)) {
    await close();
    throw new Error('the JSON worker answered out of turn');
  }
  async function* slices(): AsyncGenerator<JsonSlice> {
    try {
      while (!closed) {
        worker.postMessage(NEXT_SLICE);
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
      await close();
    }
  }
  if (first.parts.length === 0) await close();
  return { head: first.head, slices: slices(), close };
}
