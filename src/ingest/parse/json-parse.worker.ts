/*
 * The worker thread of openJsonInWorker (json-worker.ts). It hands the long arrays over one
 * slice at a time, each on request: messages queued all at once would be taken in by the main
 * thread in one go, which is the blocking the worker is there to avoid.
 *
 * A body that is an object is not parsed here but scanned: the scanner finds where the long
 * arrays' items begin and end (it follows strings and nesting, nothing more), so that each
 * slice goes over as the text of its items, which the main thread parses (cheaper than taking
 * in the same objects by structured clone). The rest of the body, with those arrays emptied, is
 * parsed here: every character of the body is thus parsed by JSON.parse, in the skeleton or in
 * a slice. Anything the scanner does not expect (a body
 * that is not an object, a long array given twice, malformed JSON) goes through a plain
 * JSON.parse here instead, and its arrays are sent as objects.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { nestsDeeperThan } from '../../common/json-depth.js';
import {
  PARTS,
  type JsonParseAnswer,
  type JsonParseWorkerData,
  type Part,
} from './json-parse.messages.js';

const data = workerData as JsonParseWorkerData;
const { itemsPerMessage, maxDepth } = data;
// A view, not a copy, for Buffer's native indexOf and toString.
const bytes = Buffer.from(data.bytes.buffer, data.bytes.byteOffset, data.bytes.byteLength);
const port = parentPort!;
// The scanner reads the UTF-8 bytes themselves: every character it looks for is ASCII, and no
// byte of a multi-byte character is. Only the pieces sent or parsed are decoded, so the worker
// never holds the body twice (decoded whole, it would be held again as text all run long).
const n = bytes.length;
const textOf = (start: number, end: number) => bytes.toString('utf8', start, end);
const isPart = (key: string): key is Part => (PARTS as readonly string[]).includes(key);

/** Thrown where the scanner meets what it does not expect: the plain path takes over. */
class Unexpected extends Error {}

function fail(): never {
  throw new Unexpected();
}

function skipWs(i: number): number {
  for (;;) {
    const c = bytes[i];
    if (c === 32 || c === 10 || c === 13 || c === 9) i++;
    else return i;
  }
}

function skipString(i: number): number {
  let from = i + 1;
  for (;;) {
    const quote = bytes.indexOf(34, from);
    if (quote < 0) fail();
    let backslashes = 0;
    while (quote - backslashes - 1 >= from && bytes[quote - backslashes - 1] === 92) {
      backslashes++;
    }
    if (backslashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

function skipValue(i: number): number {
  const first = bytes[i];
  if (first === 34) return skipString(i);
  if (first === 123 || first === 91) {
    let depth = 0;
    for (;;) {
      if (i >= n) fail();
      const c = bytes[i];
      if (c === 34) {
        i = skipString(i);
        continue;
      }
      if (c === 123 || c === 91) depth++;
      else if (c === 125 || c === 93) {
        depth--;
        if (depth === 0) return i + 1;
      }
      i++;
    }
  }
  const start = i;
  for (;;) {
    const c = bytes[i];
    if (i >= n || c === 44 || c === 125 || c === 93 || c === 32 || c === 10 || c === 13 || c === 9)
      break;
    i++;
  }
  if (i === start) fail();
  return i;
}

type Cut = [start: number, end: number];

/** Item ranges [start, end) of one long array, cut every itemsPerMessage items. */
function scanArray(i: number, cuts: Cut[]): number {
  i = skipWs(i + 1);
  if (bytes[i] === 93) return i + 1;
  let start = i;
  let count = 0;
  for (;;) {
    i = skipWs(skipValue(i));
    count++;
    const c = bytes[i];
    if (c === 93) {
      cuts.push([start, i]);
      return i + 1;
    }
    if (c !== 44) fail();
    if (count % itemsPerMessage === 0) {
      cuts.push([start, i]);
      start = i + 1;
    }
    i = skipWs(i + 1);
  }
}

interface Scanned {
  body: unknown;
  arrays: Map<Part, Cut[]>;
}

/** The body's skeleton, and the cuts of its long arrays; null when the body is not an object. */
function scan(): Scanned | null {
  let i = skipWs(0);
  if (bytes[i] !== 123) return null;
  const skeleton = ['{'];
  const arrays = new Map<Part, Cut[]>();
  const keys = new Set<unknown>();
  i = skipWs(i + 1);
  if (bytes[i] !== 125) {
    for (;;) {
      if (bytes[i] !== 34) fail();
      const keyStart = i;
      i = skipString(i);
      const rawKey = textOf(keyStart, i);
      const key = JSON.parse(rawKey) as string;
      // A key given twice: JSON.parse keeps the last; the plain path does the same.
      if (keys.has(key)) return null;
      keys.add(key);
      i = skipWs(i);
      if (bytes[i] !== 58) fail();
      i = skipWs(i + 1);
      skeleton.push(rawKey, ':');
      if (isPart(key) && bytes[i] === 91) {
        const cuts: Cut[] = [];
        i = scanArray(i, cuts);
        arrays.set(key, cuts);
        skeleton.push('[]');
      } else {
        const start = i;
        i = skipValue(i);
        skeleton.push(textOf(start, i));
      }
      i = skipWs(i);
      const c = bytes[i];
      if (c === 125) break;
      if (c !== 44) fail();
      skeleton.push(',');
      i = skipWs(i + 1);
    }
  }
  if (skipWs(i + 1) !== n) fail();
  skeleton.push('}');
  return { body: JSON.parse(skeleton.join('')), arrays };
}

const post = (answer: JsonParseAnswer) => port.postMessage(answer);

/** The body, or null once the answer refusing it is sent. */
function parse(): { body: unknown; scanned: Scanned | null } | null {
  let scanned: Scanned | null;
  try {
    scanned = scan();
  } catch {
    scanned = null;
  }
  let body: unknown;
  try {
    body = scanned ? scanned.body : JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    post({ invalid: 'json' });
    return null;
  }
  // The long arrays' items are checked one by one, each as a whole, by the caller; anything
  // else this deep would overflow a recursive walk, or the structured clone that sends it.
  if (nestsDeeperThan(scanned ? body : headOf(body, null).head, maxDepth)) {
    post({ invalid: 'depth' });
    return null;
  }
  return { body, scanned };
}

/** The body with its long arrays emptied, and the names of those arrays. */
function headOf(body: unknown, scanned: Scanned | null): { head: unknown; parts: Part[] } {
  if (Array.isArray(body)) return { head: [], parts: [] };
  if (typeof body !== 'object' || body === null) return { head: body, parts: [] };
  // No prototype, so that a "__proto__" key stays a key, as JSON.parse left it.
  const head = Object.create(null) as Record<string, unknown>;
  const parts: Part[] = [];
  for (const [key, value] of Object.entries(body)) {
    const long = scanned ? scanned.arrays.has(key as Part) : isPart(key) && Array.isArray(value);
    head[key] = long ? [] : value;
    if (long) parts.push(key as Part);
  }
  return { head, parts };
}

const parsed = parse();
if (parsed) {
  const { body, scanned } = parsed;
  const { head, parts } = headOf(body, scanned);
  post({ head, parts });
  const items = (name: Part) => (body as Record<Part, unknown[]>)[name];
  const length = (name: Part) => (scanned ? scanned.arrays.get(name)!.length : items(name).length);
  let part = 0;
  let start = 0;
  port.on('message', () => {
    while (part < parts.length && start >= length(parts[part])) {
      part++;
      start = 0;
    }
    if (part === parts.length) return post({ done: true });
    const name = parts[part];
    if (scanned) {
      const [from, to] = scanned.arrays.get(name)![start++];
      return post({ part: name, text: textOf(from, to) });
    }
    const slice = items(name).slice(start, start + itemsPerMessage);
    start += slice.length;
    post({ part: name, items: slice });
  });
}
