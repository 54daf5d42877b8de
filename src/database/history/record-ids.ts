import { v7 as uuidv7 } from 'uuid';

/**
 * Change record ids: UUIDv7s whose time is the record's own `time`, to the millisecond, so that
 * the primary key orders the records as (time, id) would, and a time range is an id range: the
 * lists, the since/until filters and the retention need no index of their own on the time.
 * One write's records share a UUIDv7 made for it (its time and 32 random bits) and count in
 * its last 48 bits, so they stay unique and in the order written, for a fraction of a UUID's
 * making each.
 */
export class RecordIds {
  /** The first 24 characters: the write's time, the version, and random bits. */
  readonly prefix: string;
  /** How many ids were taken: the next id's counter. */
  private taken = 0;

  constructor(time: Date) {
    // With msecs given, the uuid package draws the bits after the time at random.
    this.prefix = uuidv7({ msecs: time.getTime() }).slice(0, 24);
  }

  next(): string {
    return this.prefix + (this.taken++).toString(16).padStart(12, '0');
  }

  /** Takes `count` ids made elsewhere (by SQL, from the prefix): answers the first's counter. */
  reserve(count: number): number {
    const first = this.taken;
    this.taken += count;
    return first;
  }
}

/**
 * How far after its time an id may be: records written before ids carried their time exactly
 * took theirs a few milliseconds after it (never before), so an upper bound on the ids keeps
 * this margin; the time itself bounds exactly.
 */
export const ID_TIME_SLACK_MS = 60_000;

/**
 * The lowest record id of `time`'s millisecond: every record at or after `time` has an id at
 * or above it.
 */
export function firstIdAt(time: Date): string {
  const hex = time.getTime().toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8)}-0000-0000-000000000000`;
}
