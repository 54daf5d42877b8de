import { MAX_BODY_DEPTH } from '../../common/json-depth.js';
import { FormatError } from './format-error.js';

/** Where a value is: the keys and indices from its top-level value (a document) down. */
export type JsonPath = readonly (string | number)[];

export type JsonKind = 'object' | 'array' | 'string' | 'number' | 'literal';

/**
 * What to do with a value as it starts: `capture` parses it whole (JSON.parse of its text) and
 * hands it over; `descend` (an object or array) goes into it, asking again for each member;
 * `skip` reads past it, checking it, keeping nothing.
 */
export type JsonStep = 'capture' | 'descend' | 'skip';

/** The values of one JSON-based format, as JsonStream hands them over. */
export interface JsonHandler {
  /** A value starts at `path`; `line` is the line (from 0) its first character is on. */
  step(path: JsonPath, kind: JsonKind, line: number): JsonStep;
  /** A captured value, parsed. */
  value(path: JsonPath, value: unknown): void;
  /** A container it descended into has closed. */
  closed(path: JsonPath): void;
}

// States of a container being read (and of the top level, which is a sequence of values).
const VALUE = 0; // a value must come (after `:` or an array's `,`)
const VALUE_OR_END = 1; // after `[`
const KEY_OR_END = 2; // after `{`
const KEY = 3; // after an object's `,`
const COLON = 4;
const COMMA_OR_END = 5;
const TOP = 6; // the top level: any number of values, separated by whitespace or not

interface Frame {
  array: boolean;
  /** Whether the handler is told about its members (descended), or it is skipped. */
  told: boolean;
  state: number;
  index: number;
  key: string | null;
}

const LITERAL = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)$/;
/** A literal or number longer than this is no JSON value anyone writes. */
const MAX_LITERAL = 400;

const QUOTE = 34;
const BACKSLASH = 92;
const NEWLINE = 10;

function isWhitespace(c: number): boolean {
  return c === 32 || c === NEWLINE || c === 13 || c === 9;
}

function isDelimiter(c: number): boolean {
  return isWhitespace(c) || c === 44 || c === 93 || c === 125;
}

/** UTF-8 bytes as text, without copying them first. */
function textOf(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}

/** Whether a string's bytes hold neither an escape nor a control character (nor non-ASCII). */
function isPlain(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i];
    if (c < 32 || c === BACKSLASH || c > 126) return false;
  }
  return true;
}

/** stringEnd's answers when the chunk ends inside the string. */
const OPEN = -1;
const OPEN_ESCAPED = -2;

/**
 * From `i` inside a string (`escaped`: the byte at `i` is escaped by the chunk before), the index
 * just past its closing quote; else OPEN, or OPEN_ESCAPED when the chunk's last byte escapes the
 * next chunk's first. Quotes are found by indexOf; only the backslashes right before one are
 * counted, so a string costs its length, not the chunk's.
 */
function stringEnd(chunk: Uint8Array, i: number, escaped: boolean): number {
  const n = chunk.length;
  let from = escaped ? i + 1 : i;
  if (from > n) return OPEN_ESCAPED;
  for (;;) {
    const quote = chunk.indexOf(QUOTE, from);
    const last = quote < 0 ? n : quote;
    let backslashes = 0;
    while (last - backslashes - 1 >= from && chunk[last - backslashes - 1] === BACKSLASH) {
      backslashes++;
    }
    if (quote < 0) return backslashes % 2 === 1 ? OPEN_ESCAPED : OPEN;
    if (backslashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

/**
 * A JSON text (or several, one after another: JSON Lines) read as it streams in, fed bytes in
 * any pieces. Only what the handler captures is parsed into values, one value at a time; the
 * rest is checked for the JSON grammar and let go, so that the memory held is the largest
 * captured value, not the body. Nesting deeper than the JSON body's limit is refused.
 */
export class JsonStream {
  private readonly frames: Frame[] = [];
  private readonly path: (string | number)[] = [];
  private top = TOP;
  private line = 0;
  /** The line the value being read at the top level started on. */
  private valueLine = 0;
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });

  // A string being read (a key or a skipped string): its bytes kept only for a key.
  private inString = false;
  private inKey = false;
  /** A key's bytes, kept only in a container the handler is told about. */
  private stringKey: Uint8Array[] | null = null;
  private escaped = false;
  // A number or literal being read, skipped.
  private literal: string | null = null;
  // A value being captured: its bytes, the depth of its containers, whether in a string.
  private capture: Uint8Array[] | null = null;
  private captureDepth = 0;
  private captureScalar = false;
  private captureInString = false;
  private captureEscaped = false;

  constructor(
    private readonly handler: JsonHandler,
    /** The body's name in refusals: "the Trivy body". */
    private readonly what: string,
  ) {}

  write(chunk: Uint8Array): void {
    try {
      this.decoder.decode(chunk, { stream: true });
    } catch {
      throw new FormatError(`${this.what} is not valid UTF-8`);
    }
    let i = 0;
    const n = chunk.length;
    while (i < n) {
      if (this.capture) i = this.readCapture(chunk, i);
      else if (this.inString) i = this.readString(chunk, i);
      else if (this.literal !== null) i = this.readLiteral(chunk, i);
      else i = this.readStructure(chunk, i);
    }
  }

  end(): void {
    try {
      this.decoder.decode(new Uint8Array(0));
    } catch {
      throw new FormatError(`${this.what} is not valid UTF-8`);
    }
    if (this.capture && this.captureScalar && !this.captureInString) this.finishCapture();
    if (this.literal !== null) this.finishLiteral();
    if (this.capture || this.inString || this.frames.length > 0) {
      throw new FormatError(`${this.what} is not valid JSON: it ends inside a value`);
    }
  }

  private fail(reason: string): never {
    throw new FormatError(`${this.what} is not valid JSON: ${reason} (line ${this.line + 1})`);
  }

  private readStructure(chunk: Uint8Array, i: number): number {
    const c = chunk[i];
    if (isWhitespace(c)) {
      if (c === NEWLINE) this.line++;
      return i + 1;
    }
    const frame = this.frames[this.frames.length - 1];
    const state = frame ? frame.state : this.top;
    switch (state) {
      case TOP:
        this.valueLine = this.line;
        return this.startValue(chunk, i);
      case VALUE:
        return this.startValue(chunk, i);
      case VALUE_OR_END:
        if (c === 93) return this.closeFrame(i);
        return this.startValue(chunk, i);
      case KEY_OR_END:
        if (c === 125) return this.closeFrame(i);
        return this.startKey(c, i);
      case KEY:
        return this.startKey(c, i);
      case COLON:
        if (c !== 58) this.fail('a colon must follow an object key');
        frame.state = VALUE;
        return i + 1;
      default: // COMMA_OR_END
        if (c === 44) {
          frame.state = frame.array ? VALUE : KEY;
          return i + 1;
        }
        if (c === (frame.array ? 93 : 125)) return this.closeFrame(i);
        return this.fail(`unexpected ${JSON.stringify(String.fromCharCode(c))}`);
    }
  }

  private startKey(c: number, i: number): number {
    if (c !== QUOTE) this.fail('an object key must be a string');
    this.inString = true;
    this.inKey = true;
    // A skipped object's keys name nothing the handler hears of: they are not decoded.
    this.stringKey = this.frames[this.frames.length - 1].told ? [] : null;
    this.escaped = false;
    return i + 1;
  }

  private startValue(chunk: Uint8Array, i: number): number {
    const c = chunk[i];
    const kind: JsonKind | null =
      c === 123
        ? 'object'
        : c === 91
          ? 'array'
          : c === QUOTE
            ? 'string'
            : c === 45 || (c >= 48 && c <= 57)
              ? 'number'
              : c === 116 || c === 102 || c === 110
                ? 'literal'
                : null;
    if (kind === null) this.fail(`unexpected ${JSON.stringify(String.fromCharCode(c))}`);
    const parent = this.frames[this.frames.length - 1];
    if (parent) {
      if (parent.array) this.path.push(parent.index++);
      else this.path.push(parent.key!);
    }
    const told = !parent || parent.told;
    const step = told ? this.handler.step(this.path, kind, this.valueLine) : 'skip';
    const container = kind === 'object' || kind === 'array';
    if (step === 'capture') {
      this.capture = [];
      this.captureDepth = 0;
      this.captureScalar = !container;
      this.captureInString = false;
      this.captureEscaped = false;
      return this.readCapture(chunk, i);
    }
    if (container) {
      if (this.frames.length >= MAX_BODY_DEPTH) {
        throw new FormatError(`${this.what} nests deeper than ${MAX_BODY_DEPTH} levels`);
      }
      this.frames.push({
        array: kind === 'array',
        told: step === 'descend',
        state: kind === 'array' ? VALUE_OR_END : KEY_OR_END,
        index: 0,
        key: null,
      });
      return i + 1;
    }
    if (kind === 'string') {
      this.inString = true;
      this.stringKey = null;
      this.escaped = false;
      return i + 1;
    }
    this.literal = '';
    return i;
  }

  /** A value is over: its container (or the top level) waits for what follows it. */
  private valueDone(): void {
    const parent = this.frames[this.frames.length - 1];
    if (parent) {
      parent.state = COMMA_OR_END;
      this.path.pop();
    }
  }

  private closeFrame(i: number): number {
    const frame = this.frames.pop()!;
    if (frame.told) this.handler.closed(this.path);
    this.valueDone();
    return i + 1;
  }

  /** Inside a string (a key, or a skipped value): to its closing quote. */
  private readString(chunk: Uint8Array, i: number): number {
    const end = stringEnd(chunk, i, this.escaped);
    if (end < 0) {
      this.escaped = end === OPEN_ESCAPED;
      this.stringKey?.push(chunk.subarray(i));
      return chunk.length;
    }
    this.escaped = false;
    this.inString = false;
    const key = this.stringKey;
    this.stringKey = null;
    if (this.inKey) {
      this.inKey = false;
      if (key) {
        key.push(chunk.subarray(i, end - 1));
        this.setKey(key);
      } else {
        this.frames[this.frames.length - 1].state = COLON;
      }
    } else {
      this.valueDone();
    }
    return end;
  }

  private setKey(parts: Uint8Array[]): void {
    const frame = this.frames[this.frames.length - 1];
    const bytes = parts.length === 1 ? parts[0] : Buffer.concat(parts);
    // Most keys are plain ASCII words: decoded as they are, without a parse.
    if (isPlain(bytes)) {
      frame.key = textOf(bytes);
    } else {
      try {
        frame.key = JSON.parse(`"${textOf(bytes)}"`) as string;
      } catch {
        this.fail('an object key is not a valid string');
      }
    }
    frame.state = COLON;
  }

  private readLiteral(chunk: Uint8Array, i: number): number {
    const start = i;
    const n = chunk.length;
    while (i < n && !isDelimiter(chunk[i])) i++;
    this.literal += Buffer.from(chunk.buffer, chunk.byteOffset + start, i - start).toString(
      'latin1',
    );
    if (this.literal!.length > MAX_LITERAL) this.fail('a number or literal is too long');
    if (i < n) this.finishLiteral();
    return i;
  }

  private finishLiteral(): void {
    const literal = this.literal!;
    this.literal = null;
    if (!LITERAL.test(literal)) this.fail(`${JSON.stringify(literal)} is not a JSON value`);
    this.valueDone();
  }

  /** A value being captured: to its end, then parsed whole and handed over. */
  private readCapture(chunk: Uint8Array, i: number): number {
    const start = i;
    const n = chunk.length;
    const parts = this.capture!;
    while (i < n) {
      if (this.captureInString) {
        const end = stringEnd(chunk, i, this.captureEscaped);
        if (end < 0) {
          this.captureEscaped = end === OPEN_ESCAPED;
          break;
        }
        this.captureEscaped = false;
        this.captureInString = false;
        i = end;
        if (this.captureDepth === 0) {
          // A captured string is complete at its closing quote.
          parts.push(chunk.subarray(start, i));
          this.finishCapture();
          return i;
        }
        continue;
      }
      const c = chunk[i];
      if (this.captureScalar && this.captureDepth === 0 && c !== QUOTE && isDelimiter(c)) {
        parts.push(chunk.subarray(start, i));
        this.finishCapture();
        return i;
      }
      i++;
      if (c === QUOTE) this.captureInString = true;
      else if (c === 123 || c === 91) {
        if (++this.captureDepth + this.frames.length > MAX_BODY_DEPTH) {
          throw new FormatError(`${this.what} nests deeper than ${MAX_BODY_DEPTH} levels`);
        }
      } else if (c === 125 || c === 93) {
        if (--this.captureDepth === 0 && !this.captureScalar) {
          parts.push(chunk.subarray(start, i));
          this.finishCapture();
          return i;
        }
      } else if (c === NEWLINE) this.line++;
    }
    parts.push(chunk.subarray(start, n));
    return n;
  }

  private finishCapture(): void {
    const parts = this.capture!;
    const text = textOf(parts.length === 1 ? parts[0] : Buffer.concat(parts));
    this.capture = null;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      this.fail((error as Error).message);
    }
    this.handler.value(this.path, value);
    this.valueDone();
  }
}
