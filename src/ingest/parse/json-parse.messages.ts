/** The messages between openJsonInWorker (json-worker.ts) and its worker (json-parse.worker.ts). */

/** The top-level arrays that may be long enough to need sending in parts. */
export const PARTS = ['assets', 'relations'] as const;

export type Part = (typeof PARTS)[number];

export interface JsonParseWorkerData {
  bytes: Uint8Array;
  itemsPerMessage: number;
  /** How deep the body may nest outside the long arrays' items. */
  maxDepth: number;
}

/** The worker's answers: the first one (`invalid` or `head`), then one per request for more. */
export type JsonParseAnswer =
  /** The body is refused: malformed JSON, or nested deeper than `maxDepth`. */
  | { invalid: 'json' | 'depth' }
  /** The body with each array in `parts` empty: their items follow, on request. */
  | { head: unknown; parts: Part[] }
  | { part: Part; items: unknown[] }
  /** The items' text as it stands in the body (items and commas), for the caller to parse. */
  | { part: Part; text: string }
  | { done: true };

/** The caller asks for the next slice with this message. */
export const NEXT_SLICE = 'next';
