import type { ConvertedItem, ScannerConverter, ScannerFormat } from './converted-item.js';
import { JsonStream, type JsonHandler } from './json-stream.js';

/** The values of one JSON-based format, and the items they make. */
export interface JsonItemsHandler extends JsonHandler {
  /** Items completed since the last call, handed over and forgotten. */
  take(): ConvertedItem[];
  /** The body is over: the items kept for its end. */
  end(): Iterable<ConvertedItem>;
}

/**
 * A JSON-based scanner body (masscan's `-oJ`, Nuclei's JSON Lines, Trivy's report) read with
 * JsonStream: its format is the one `?format=` named, known before the first byte.
 */
export class JsonConverter implements ScannerConverter {
  private readonly stream: JsonStream;

  constructor(
    readonly format: ScannerFormat,
    private readonly handler: JsonItemsHandler,
    what: string,
  ) {
    this.stream = new JsonStream(handler, what);
  }

  write(chunk: Uint8Array | string): ConvertedItem[] {
    this.stream.write(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    return this.handler.take();
  }

  *end(): Generator<ConvertedItem> {
    this.stream.end();
    yield* this.handler.take();
    yield* this.handler.end();
  }
}
