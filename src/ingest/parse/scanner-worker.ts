import { Worker } from 'node:worker_threads';
import { workerFile } from '../../common/workers/worker-file.js';
import { receiver, terminator, transferable } from '../../common/workers/worker-messages.js';
import type { ConvertedSlice } from '../formats/convert-body.js';
import type { ScannerFormat } from '../formats/converted-item.js';
import type { ScannerBodyKind } from '../formats/format-choice.js';
import { FormatError } from '../formats/format-error.js';
import {
  NEXT_SLICE,
  type ScannerParseAnswer,
  type ScannerParseWorkerData,
} from './scanner-parse.messages.js';

const WORKER = workerFile(import.meta.url, 'scanner-parse.worker');

/** A scanner body converted in a worker: its format now, its items slice by slice. */
export interface ScannerInWorker {
  format: ScannerFormat;
  slices: AsyncGenerator<ConvertedSlice>;
  /** Stops the worker, whether or not every slice was taken; resolves once it has exited. */
  close(): Promise<void>;
}

/**
 * A scanner's body (of the formats of formats/; `kind` says which) through its converter in a
 * worker thread. Converting is most of the cost of a large XML body: here it runs beside the
 * main thread's checks and plans, one slice ahead of them, instead of before each. A body
 * refused as a whole throws FormatError (invalid input), at once when its start is (no root
 * element, another root), or from `slices` when the trouble comes later.
 */
export async function openScannerInWorker(
  kind: ScannerBodyKind,
  bytes: Uint8Array,
  sliceSize: number,
): Promise<ScannerInWorker> {
  const view = transferable(bytes);
  const workerData: ScannerParseWorkerData = { bytes: view, kind, sliceSize };
  const worker = new Worker(WORKER, { workerData, transferList: [view.buffer as ArrayBuffer] });
  const receive = receiver<ScannerParseAnswer>(worker, 'scanner worker');
  const close = terminator(worker);
  const request = () => {
    worker.postMessage(NEXT_SLICE);
    const next = receive();
    // Marked handled: a failure meanwhile is thrown where it is awaited, not as unhandled.
    next.catch(() => undefined);
    return next;
  };

  let first: ScannerParseAnswer;
  try {
    first = await receive();
  } catch (error) {
    await close();
    throw error;
  }
  if (!('format' in first)) {
    await close();
    if ('refused' in first) throw new FormatError(first.refused);
    throw new Error('the scanner worker answered out of turn');
  }

  async function* slices(): AsyncGenerator<ConvertedSlice> {
    try {
      let pending = request();
      for (;;) {
        const message = await pending;
        if ('done' in message) return;
        if ('refused' in message) throw new FormatError(message.refused);
        if (!('part' in message)) throw new Error('the scanner worker answered out of turn');
        // The next slice is converted while this one is checked and planned.
        pending = request();
        yield {
          part: message.part,
          items: JSON.parse(message.text) as unknown[],
          paths: message.paths,
        };
      }
    } finally {
      await close();
    }
  }
  return { format: first.format, slices: slices(), close };
}
