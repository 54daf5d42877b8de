/*
 * The worker thread of openScannerInWorker (scanner-worker.ts): a scanner's body through its
 * converter (formats/), off the main thread, which meanwhile checks and plans the slice before.
 * Each request for a slice is answered in turn; a converter's FormatError is sent as `refused`,
 * anything else fails the worker.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { converterFor, openScannerBody, type ConvertedSlice } from '../formats/convert-body.js';
import { FormatError } from '../formats/format-error.js';
import type { ScannerParseAnswer, ScannerParseWorkerData } from './scanner-parse.messages.js';

const { bytes, mediaType, sliceSize } = workerData as ScannerParseWorkerData;
const port = parentPort!;
const post = (answer: ScannerParseAnswer) => port.postMessage(answer);

/** Runs `step`, sending a FormatError as the refusal; true when it did. */
async function refusing(step: () => Promise<void>): Promise<boolean> {
  try {
    await step();
    return false;
  } catch (error) {
    if (!(error instanceof FormatError)) throw error;
    post({ refused: error.message });
    return true;
  }
}

let slices: AsyncGenerator<ConvertedSlice> | null = null;
const opened = await refusing(async () => {
  const body = await openScannerBody(converterFor(mediaType)!, bytes, sliceSize);
  slices = body.slices;
  post({ format: body.format });
});

if (!opened && slices) {
  const source: AsyncGenerator<ConvertedSlice> = slices;
  // One answer at a time, in order: a request that comes while a slice is converted waits.
  let turn = Promise.resolve();
  port.on('message', () => {
    turn = turn.then(() =>
      refusing(async () => {
        const next = await source.next();
        if (next.done) return post({ done: true });
        const { part, items, paths } = next.value;
        post({ part, text: JSON.stringify(items), paths });
      }).then(() => undefined),
    );
  });
}
