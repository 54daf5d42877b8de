/** The messages between openScannerInWorker (scanner-worker.ts) and its worker (scanner-parse.worker.ts). */
import type { ScannerFormat } from '../formats/converted-item.js';
import type { ScannerBodyKind } from '../formats/format-choice.js';

export interface ScannerParseWorkerData {
  bytes: Uint8Array;
  /** The body's media type and `?format=`, which pick the converter (formats/convert-body.ts). */
  kind: ScannerBodyKind;
  sliceSize: number;
}

/** The worker's answers: the first one (`format` or `refused`), then one per request for more. */
export type ScannerParseAnswer =
  | { format: ScannerFormat }
  /** The body is refused as a whole (FormatError): the sentence for the client. */
  | { refused: string }
  /** A slice's items as JSON text (taken in faster than by structured clone), and their names. */
  | { part: 'assets' | 'relations'; text: string; paths: string[] }
  | { done: true };

/** The caller asks for the next slice with this message. */
export const NEXT_SLICE = 'next';
