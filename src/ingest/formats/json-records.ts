import { FormatError } from './format-error.js';
import type { JsonKind, JsonPath } from './json-stream.js';

/**
 * Where the records of a JSON-based body are: one after another (JSON Lines, `-oD`), or the
 * elements of the one array the body is (`-oJ`, Nuclei's `-je`).
 */
export class JsonRecords {
  private started = false;
  private inArray = false;

  /** `what`: the body and its records, for a refusal ("the Nuclei body", "results"). */
  constructor(
    private readonly what: string,
    private readonly records: string,
  ) {}

  /**
   * What starts at `path`: `array` for the body's array of records (to descend into), `record`
   * for a record. Refuses anything after the array.
   */
  at(path: JsonPath, kind: JsonKind): 'array' | 'record' {
    if (path.length === 0 && !this.started) {
      this.started = true;
      if (kind === 'array') {
        this.inArray = true;
        return 'array';
      }
    }
    if (path.length === 0 && this.inArray) {
      throw new FormatError(`${this.what} holds something after its array of ${this.records}`);
    }
    return 'record';
  }

  /** A record's index in the array, or undefined when records follow one another. */
  indexOf(path: JsonPath): number | undefined {
    return this.inArray ? (path[0] as number) : undefined;
  }
}
