import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { ConvertedItem, ScannerConverter } from './converted-item.js';
import { CsvConverter } from './csv.converter.js';
import { XmlConverter } from './xml.converter.js';

/**
 * The most bytes converted in one turn of the event loop: about 2 ms of XML on this machine,
 * so that a body already in memory does not hold up other requests (health probes) meanwhile.
 */
export const CONVERT_BYTES_PER_TURN = 64 * 1024;

/** Part of a converted body: the same shape as the JSON parser's slices, with items' names. */
export interface ConvertedSlice {
  part: 'assets' | 'relations';
  items: unknown[];
  /** `paths[i]` names `items[i]` in error messages (`hosts[3]`, `line 7`). */
  paths: string[];
}

/**
 * The converter for a body's media type (without parameters, any case), or null for a type
 * that is not a scanner format: `application/xml` and `text/xml` (Nmap or Nessus, by the root
 * element), `text/csv`.
 */
export function converterFor(mediaType: string): ScannerConverter | null {
  switch (mediaType.split(';')[0].trim().toLowerCase()) {
    case 'application/xml':
    case 'text/xml':
      return new XmlConverter();
    case 'text/csv':
      return new CsvConverter();
    default:
      return null;
  }
}

/**
 * A body's chunks through its converter, as slices of at most `sliceSize` items: the assets'
 * then the relations'. A chunk larger than CONVERT_BYTES_PER_TURN (a body read whole) is fed in
 * pieces of that size, with a turn of the event loop after each, and only one piece's items
 * and one slice are held at a time.
 */
export async function* convertBody(
  converter: ScannerConverter,
  chunks: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
  sliceSize: number,
): AsyncGenerator<ConvertedSlice> {
  let slice: ConvertedSlice | null = null;
  function* add(items: ConvertedItem[]): Generator<ConvertedSlice> {
    for (const item of items) {
      if (slice && (slice.part !== item.part || slice.items.length >= sliceSize)) {
        yield slice;
        slice = null;
      }
      slice ??= { part: item.part, items: [], paths: [] };
      slice.items.push(item.value);
      slice.paths.push(item.path);
    }
  }
  for await (const chunk of chunks) {
    // A string is fed whole: cutting it could split a character's surrogate pair.
    const step = typeof chunk === 'string' ? chunk.length : CONVERT_BYTES_PER_TURN;
    for (let start = 0; start < chunk.length; start += step) {
      const piece = typeof chunk === 'string' ? chunk : chunk.subarray(start, start + step);
      yield* add(converter.write(piece));
      await yieldToEventLoop();
    }
  }
  yield* add(converter.end());
  if (slice) yield slice;
}
