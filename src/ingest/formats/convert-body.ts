import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { ConvertedItem, ScannerConverter, ScannerFormat } from './converted-item.js';
import { CsvConverter } from './csv.converter.js';
import { isJsonBody, type ScannerBodyKind } from './format-choice.js';
import { FormatError } from './format-error.js';
import { JsonConverter } from './json.converter.js';
import { MasscanConverter } from './masscan.converter.js';
import { NucleiConverter } from './nuclei.converter.js';
import { TrivyConverter } from './trivy.converter.js';
import { XmlConverter } from './xml.converter.js';

/**
 * The most bytes converted in one turn of the event loop: a short task, so that the thread
 * converting (the scanner worker's, or any other) stays responsive, and only one piece's items
 * are held at a time.
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
 * Each format's converter: `json` tells a JSON-based body (masscan's `-oJ`) from an XML one
 * (masscan's `-oX`); an XML body without `?format=` is told by its root (XmlConverter).
 */
const CONVERTERS: Readonly<Record<ScannerFormat, (json: boolean) => ScannerConverter>> = {
  nmap: () => new XmlConverter('nmap'),
  nessus: () => new XmlConverter('nessus'),
  greenbone: () => new XmlConverter('greenbone'),
  csv: () => new CsvConverter(),
  masscan: (json) =>
    json
      ? new JsonConverter('masscan', new MasscanConverter(), 'the masscan JSON body')
      : new XmlConverter('masscan'),
  nuclei: () => new JsonConverter('nuclei', new NucleiConverter(), 'the Nuclei body'),
  trivy: () => new JsonConverter('trivy', new TrivyConverter(), 'the Trivy body'),
};

/** The converter for a scanner body of this kind (format-choice.ts). */
export function converterFor(kind: ScannerBodyKind): ScannerConverter {
  return kind.format === null ? new XmlConverter() : CONVERTERS[kind.format](isJsonBody(kind));
}

/**
 * What an item costs to check and plan, in items: a Trivy image carries dozens of
 * vulnerabilities, each checked and planned like an item of its own, and a slice is taken in
 * one turn of the event loop.
 */
function weightOf(item: ConvertedItem): number {
  return item.part === 'assets' ? 1 + (item.value.vulnerabilities?.length ?? 0) : 1;
}

/**
 * A body's chunks through its converter, as slices of at most `sliceSize` items (counting an
 * asset's vulnerabilities as items): the assets'
 * then the relations'. A chunk larger than CONVERT_BYTES_PER_TURN (a body read whole) is fed in
 * pieces of that size, with a turn of the event loop after each, and only one piece's items
 * and one slice are held at a time. `first`: items the converter gave before (openScannerBody).
 */
export async function* convertBody(
  converter: ScannerConverter,
  chunks: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
  sliceSize: number,
  first: readonly ConvertedItem[] = [],
): AsyncGenerator<ConvertedSlice> {
  let slice: ConvertedSlice | null = null;
  let weight = 0;
  function* add(items: Iterable<ConvertedItem>): Generator<ConvertedSlice> {
    for (const item of items) {
      if (slice && (slice.part !== item.part || weight >= sliceSize)) {
        yield slice;
        slice = null;
        weight = 0;
      }
      slice ??= { part: item.part, items: [], paths: [] };
      slice.items.push(item.value);
      slice.paths.push(item.path);
      weight += weightOf(item);
    }
  }
  yield* add(first);
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

/** A scanner body whose format is known (an XML body's root element read); its items to come. */
export interface OpenedScannerBody {
  format: ScannerFormat;
  slices: AsyncGenerator<ConvertedSlice>;
}

/**
 * A body read whole, fed to its converter until its format is known (the XML root comes
 * after the prolog, in the first piece but for a long comment), so that the run can be recorded
 * with it before any item; then convertBody over the rest. A body with no root element throws
 * FormatError.
 */
export async function openScannerBody(
  converter: ScannerConverter,
  body: Uint8Array,
  sliceSize: number,
): Promise<OpenedScannerBody> {
  const first: ConvertedItem[] = [];
  let offset = 0;
  while (converter.format === null && offset < body.length) {
    first.push(...converter.write(body.subarray(offset, offset + CONVERT_BYTES_PER_TURN)));
    offset += CONVERT_BYTES_PER_TURN;
    await yieldToEventLoop();
  }
  if (converter.format === null) {
    // Ended first (end() is lazy: its first step ends the parser), so that a body that is not
    // well formed is refused as such.
    converter.end()[Symbol.iterator]().next();
    throw new FormatError('the XML body has no root element');
  }
  return {
    format: converter.format,
    slices: convertBody(converter, [body.subarray(offset)], sliceSize, first),
  };
}
