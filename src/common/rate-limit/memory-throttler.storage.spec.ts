import { afterEach, describe, expect, it } from '@jest/globals';
import { MemoryThrottlerStorage } from './memory-throttler.storage.js';

const MINUTE = 60_000;

describe('MemoryThrottlerStorage', () => {
  let time = 1_000;
  let storage: MemoryThrottlerStorage;
  const start = () => {
    time = 1_000;
    storage = new MemoryThrottlerStorage(() => time);
    return storage;
  };
  const hit = (limit: number, key = 'default:user:1', blockDuration = 0) =>
    storage.increment(key, MINUTE, limit, blockDuration);
  afterEach(() => storage.onApplicationShutdown());

  it('counts hits up to the limit, then refuses without counting the refusals', async () => {
    start();
    expect(await hit(2)).toEqual({
      totalHits: 1,
      timeToExpire: 60,
      isBlocked: false,
      timeToBlockExpire: 0,
    });
    expect((await hit(2)).isBlocked).toBe(false);
    time += 10_000;
    for (let i = 0; i < 5; i++) {
      // Refused until the first hit leaves the window: 50 s from now, whatever the retries.
      expect(await hit(2)).toMatchObject({ totalHits: 3, isBlocked: true, timeToBlockExpire: 50 });
    }
  });

  it('slides: each hit frees its place a window after it was counted', async () => {
    start();
    await hit(2);
    time += 30_000;
    await hit(2);
    time += 29_999;
    expect((await hit(2)).isBlocked).toBe(true);
    time += 1;
    expect(await hit(2)).toMatchObject({ totalHits: 2, isBlocked: false });
    // The second hit (at 30 s) now bounds the wait.
    expect(await hit(2)).toMatchObject({ isBlocked: true, timeToBlockExpire: 30 });
    time += MINUTE;
    expect(await hit(2)).toMatchObject({ totalHits: 1, isBlocked: false });
  });

  it('keeps one budget per key', async () => {
    start();
    await hit(1, 'default:user:1');
    expect((await hit(1, 'default:user:1')).isBlocked).toBe(true);
    expect((await hit(1, 'default:user:2')).isBlocked).toBe(false);
    expect((await hit(1, 'login:ip:10.0.0.1')).isBlocked).toBe(false);
  });

  it('blocks for blockDuration once over the limit, when one is given', async () => {
    start();
    await hit(1, 'k', 5_000);
    expect(await hit(1, 'k', 5_000)).toMatchObject({ isBlocked: true, timeToBlockExpire: 5 });
    time += MINUTE;
    // The window is empty again, but the block set 60 s ago has ended too.
    expect((await hit(1, 'k', 5_000)).isBlocked).toBe(false);
  });

  it('takes a budget of hundreds of thousands in one window, and refuses past it with a 429', async () => {
    // @nestjs/throttler's own storage threw a RangeError on that refusal (Math.min(...hits)).
    start();
    for (let i = 0; i < 300_000; i++) {
      if (i % 1_000 === 0) time += 1;
      const record = await hit(300_000);
      if (record.isBlocked) throw new Error(`refused at hit ${i + 1}`);
    }
    expect(await hit(300_000)).toMatchObject({
      totalHits: 300_001,
      isBlocked: true,
      timeToBlockExpire: 60,
    });
    time += MINUTE;
    expect(await hit(300_000)).toMatchObject({ totalHits: 1, isBlocked: false });
  });

  it('forgets clients whose hits have all left the window', async () => {
    start();
    await hit(5, 'a');
    time += 30_000;
    await hit(5, 'b');
    time += 30_000;
    storage.sweep();
    expect(storage.size).toBe(1);
    time += 30_000;
    storage.sweep();
    expect(storage.size).toBe(0);
  });
});
