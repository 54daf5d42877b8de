import { describe, expect, it } from '@jest/globals';
import type { AppConfig } from '../../config/app-config.js';
import type { ResolvedAddress } from './webhook-resolver.js';
import { RefusedTargetError, WebhookTargets } from './webhook-targets.js';

/** A resolver that answers its lists in turn (the last one from then on), and counts. */
class StubResolver {
  lookups = 0;

  constructor(private readonly answers: ResolvedAddress[][]) {}

  lookup(): Promise<ResolvedAddress[]> {
    const answer = this.answers[Math.min(this.lookups, this.answers.length - 1)];
    this.lookups += 1;
    return Promise.resolve(answer);
  }
}

const targets = (resolver: StubResolver) =>
  new WebhookTargets(
    { webhooks: { allowHttp: false, allowPrivate: false } } as unknown as AppConfig,
    resolver,
  );

// Parsed URLs and stub answers only: nothing here connects anywhere.
describe('WebhookTargets.forDeliveries', () => {
  it('resolves a host name again at each delivery, refusing an answer that became private', async () => {
    const resolver = new StubResolver([
      [{ address: '192.0.2.10', family: 4 }],
      [{ address: '10.0.0.1', family: 4 }],
    ]);
    const check = targets(resolver).forDeliveries('https://hooks.example.test/in');
    await expect(check()).resolves.toMatchObject({ address: { address: '192.0.2.10' } });
    await expect(check()).rejects.toThrow(RefusedTargetError);
    expect(resolver.lookups).toBe(2);
  });

  it('checks a host given as an address once, without resolving it', async () => {
    const resolver = new StubResolver([[]]);
    const check = targets(resolver).forDeliveries('https://192.0.2.10/in');
    const first = await check();
    expect(await check()).toBe(first);
    expect(first.address).toEqual({ address: '192.0.2.10', family: 4 });
    expect(resolver.lookups).toBe(0);
    const loopback = targets(resolver).forDeliveries('https://127.0.0.1/in');
    await expect(loopback()).rejects.toThrow(/loopback, private or link-local/);
    await expect(loopback()).rejects.toThrow(RefusedTargetError);
  });

  it('refuses a URL of the wrong form at each call, without resolving', async () => {
    const resolver = new StubResolver([[{ address: '192.0.2.10', family: 4 }]]);
    const check = targets(resolver).forDeliveries('http://hooks.example.test/in');
    await expect(check()).rejects.toThrow('url must start with https://');
    expect(resolver.lookups).toBe(0);
  });
});
