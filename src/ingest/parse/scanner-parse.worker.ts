/*
 * The worker thread of openScannerInWorker (scanner-worker.ts): a scanner's body through its
 * converter (formats/), off the main thread, which meanwhile checks and plans the slice before.
 * Each request for a slice is answered in turn; a converter's FormatError is sent as `refused`,
 * anything else fails the worker.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { converterFor, openScannerBody } from '../formats/convert-body.js';
import { FormatError } from '../formats/format-error.js';
import type { ScannerParseAnswer, ScannerParseWorkerData } from './scanner-parse.messages.js';

const { bytes, kind, sliceSize } = workerData as ScannerParseWorkerData;
const port = parentPort!;
const post = (answer: ScannerParseAnswer) => port.postMessage(answer);

/** Sends a FormatError as the refusal; anything else fails the worker. */
function refuse(error: unknown): null {
  if (!(error instanceof FormatError)) throw error;
  post({ refused: error.message });
  return null;
}

const body = await openScannerBody(converterFor(kind), bytes, sliceSize).catch(refuse);
if (body) {
  post({ format: body.format });
  // One answer at a time, in order: a request that comes while a slice is converted waits.
  let turn = Promise.resolve();
  port.on('message', () => {
    turn = turn.then(async () => {
      try {
        const next = await body.slices.next();
        if (next.done) return post({ done: true });
        const { part, items, paths } = next.value;
        post({ part, text: JSON.stringify(items), paths });
      } catch (error) {
        refuse(error);
      }
    });
  });
}
