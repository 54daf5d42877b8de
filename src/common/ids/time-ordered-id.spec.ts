import { validate, version } from 'uuid';
import { timeOrderedId } from './time-ordered-id.js';

describe('timeOrderedId', () => {
  it('makes version 7 UUIDs', () => {
    const id = timeOrderedId();
    expect(validate(id)).toBe(true);
    expect(version(id)).toBe(7);
  });

  it('sorts ids in the order made, within a millisecond and across the random pool', () => {
    // More ids than the pool holds bytes for: it is drawn again on the way.
    const ids = Array.from({ length: 5000 }, () => timeOrderedId());
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });

  it('draws new random bits for each id', () => {
    const tails = new Set(Array.from({ length: 1000 }, () => timeOrderedId().slice(-12)));
    expect(tails.size).toBe(1000);
  });
});
