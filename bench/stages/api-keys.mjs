// Throughput of GET /api/auth/me with an API key bound by scopes, sources and allowedCidrs,
// against the same with an unrestricted key of the same user, on one service in paired rounds:
// what checking a key's rules costs a request.
import { load, pairedRow } from '../harness.mjs';

/** A key of the service's admin, made through the API: its header. */
async function createKey(service, body) {
  const response = await fetch(`${service.base}/api/auth/api-keys`, {
    method: 'POST',
    headers: { ...service.auth, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (response.status !== 201)
    throw new Error(`creating a key answered ${response.status}: ${await response.text()}`);
  const { key } = await response.json();
  return { authorization: `Bearer ${key}` };
}

export default {
  name: 'api-keys',
  async run(h, { quick }) {
    const seconds = quick ? 1 : 3;
    // The two sides differ by microseconds a request: the ratio sits near 1, and the machine's
    // drift moves single rounds more than that. More rounds than `http`, for a steadier median.
    const rounds = quick ? 3 : 11;
    const { service } = await h.freshService('api_keys');
    try {
      const unscoped = await createKey(service, { name: 'bench unscoped' });
      const scoped = await createKey(service, {
        name: 'bench scoped',
        scopes: ['read', 'ingest'],
        sources: ['bench-feed', 'other-feed'],
        // The bench's own address among others, so that every request checks the whole list.
        allowedCidrs: ['192.0.2.0/24', '2001:db8::/32', '::1/128', '127.0.0.0/8'],
      });
      const row = await pairedRow(
        h,
        'GET /api/auth/me, scoped key / unscoped key (req/s)',
        {
          service: (d) => load(`${service.base}/api/auth/me`, scoped, d),
          baseline: (d) => load(`${service.base}/api/auth/me`, unscoped, d),
        },
        { rounds, seconds, minRatio: 0.9 },
      );
      return { rows: [row] };
    } finally {
      await service.stop();
    }
  },
};
