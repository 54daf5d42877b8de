import { randomFillSync } from 'node:crypto';
import { v7 } from 'uuid';

/**
 * The uuid package asks the operating system for 16 random bytes at each id; an ingestion
 * makes hundreds of thousands of ids (findings, relations, events, deliveries), so the bytes
 * are drawn a pool at a time instead.
 */
const POOL_BYTES = 16 * 256;
const pool = new Uint8Array(POOL_BYTES);
let used = POOL_BYTES;

function randomBytes16(): Uint8Array {
  if (used === POOL_BYTES) {
    randomFillSync(pool);
    used = 0;
  }
  used += 16;
  return pool.subarray(used - 16, used);
}

/**
 * uuid keeps the ids of one millisecond in the order made only when it draws the bytes itself:
 * given them, its time and counter are kept here, by its rule (RFC 9562's method 1: a counter
 * started at random each millisecond, counted up within it; on overflow, the next millisecond).
 */
const state = { msecs: -Infinity, seq: 0 };

/** Bits 0 to 30 of the counter, from the random bytes (as uuid starts it). */
const startingCount = (bytes: Uint8Array): number =>
  ((bytes[6] & 0x7f) << 24) | (bytes[7] << 16) | (bytes[8] << 8) | bytes[9];

/** A new UUIDv7: ids made one after another sort in the order they were made. */
export function timeOrderedId(): string {
  const random = randomBytes16();
  const now = Date.now();
  if (now > state.msecs) {
    state.seq = startingCount(random);
    state.msecs = now;
  } else {
    state.seq = (state.seq + 1) | 0;
    if (state.seq === 0) state.msecs++;
  }
  return v7({ random, msecs: state.msecs, seq: state.seq });
}
