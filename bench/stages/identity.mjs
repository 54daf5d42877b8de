// Asset identity: the first and the repeated ingestion of COUNT assets each carrying 2
// addresses (its IPv4 and an IPv6 one), a MAC address and 2 host names (with their 2
// vulnerabilities) and COUNT relations, against the raw driver writing the same rows, the
// lists and their asset_identifiers rows included (baseline-ingest.mjs); then a `cidr` /16
// filter's first page on a store of a million such assets against the plain list's.
import { Buffer } from 'node:buffer';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ingest,
  INGEST_MAX_BYTES,
  inTurn,
  limitRow,
  load,
  pairedRow,
  ratioRow,
} from '../harness.mjs';
import { benchAsset } from '../lib.mjs';

/** Assets (and relations) per ingestion body of the big store: about 55 MiB each. */
const PER_BODY = 100_000;

const hex = (n, width) => n.toString(16).padStart(width, '0');

/** The benchmark's asset `i` with its identity lists. */
function identityAsset(i) {
  const asset = benchAsset(i);
  return {
    ...asset,
    addresses: [asset.ip, `2001:db8::${hex((i >> 16) & 0xffff, 1)}:${hex(i & 0xffff, 1)}`],
    macAddresses: [
      `02:00:${hex((i >> 24) & 255, 2)}:${hex((i >> 16) & 255, 2)}:${hex((i >> 8) & 255, 2)}:${hex(i & 255, 2)}`,
    ],
    hostnames: [`host-${i}.bench.example`, `host-${i}`],
  };
}

/** Assets `from` to `to` - 1 as a body, each with a relation to the next (the last to the first). */
function identityBody(from, to) {
  const assets = [];
  const relations = [];
  for (let i = from; i < to; i++) {
    assets.push(identityAsset(i));
    relations.push({
      sourceAssetId: `host-${i}`,
      targetAssetId: `host-${i + 1 < to ? i + 1 : from}`,
      type: 'link',
      protocol: 'tcp',
      toPorts: '443',
    });
  }
  const body = Buffer.from(
    JSON.stringify({ options: { mode: 'merge', source: 'bench' }, assets, relations }),
  );
  if (body.length >= INGEST_MAX_BYTES) throw new Error(`a body of ${body.length} bytes`);
  return body;
}

export default {
  name: 'identity',
  async run(h, { quick, count }) {
    const rounds = quick ? 1 : 3;
    const body = identityBody(0, count);
    const file = join(h.work, `identity-${count}.json`);
    writeFileSync(file, body);
    const baselineDb = await h.baselineDatabase('identity_baseline');
    const fresh = await h.freshService('identity');
    const results = [];
    let worstHealthMs = 0;
    try {
      for (let round = 0; round < rounds; round++) {
        const result = {};
        const serviceSide = async () => {
          await h.wipe(fresh.url);
          const first = await ingest(fresh.service, body);
          const repeat = await ingest(fresh.service, body);
          if (repeat.stats.assetsUnchanged !== count)
            throw new Error(`the repeated run left ${repeat.stats.assetsUnchanged} unchanged`);
          Object.assign(result, { first: first.ms, repeat: repeat.ms });
          worstHealthMs = Math.max(worstHealthMs, first.worstHealthMs, repeat.worstHealthMs);
        };
        const baselineSide = async () => {
          result.raw = await h.baselineIngest(baselineDb, file, 'raw');
        };
        await inTurn(round, [baselineSide, serviceSide]);
        results.push(result);
        h.log(`  identity round ${round + 1}: ${JSON.stringify(result)}`);
      }
    } finally {
      await fresh.service.stop();
    }
    const size = `${count / 1000}k + ${count / 1000}k`;
    const rows = [
      ratioRow(
        `first ingestion ${size}, identity lists / raw driver (ms)`,
        results,
        'first',
        'raw',
      ),
      ratioRow(
        `repeated ingestion ${size}, identity lists / raw driver (ms)`,
        results,
        'repeat',
        'raw',
        1.5,
      ),
      limitRow('worst /api/health answer during ingestion (ms)', worstHealthMs, 250),
    ];

    // The cidr filter on a big store: 10.1.0.0/16 holds 65,536 of a million assets (all of a
    // quick run's are in 10.0.0.0/16).
    const storeCount = quick ? 20_000 : 1_000_000;
    const perBody = quick ? 10_000 : PER_BODY;
    const big = await h.freshService('identity_big');
    try {
      let loadMs = 0;
      for (let from = 0; from < storeCount; from += perBody) {
        const to = Math.min(from + perBody, storeCount);
        loadMs += (await ingest(big.service, identityBody(from, to))).ms;
        h.log(`  loaded ${to} assets`);
      }
      const prefix = quick ? '10.0.0.0%2F16' : '10.1.0.0%2F16';
      const on = (path) => (d) => load(`${big.service.base}${path}`, big.service.auth, d);
      rows.push(
        await pairedRow(
          h,
          `cidr /16, limit=100, first page / plain list, ${storeCount} assets (req/s)`,
          {
            service: on(`/api/assets?limit=100&cidr=${prefix}`),
            baseline: on('/api/assets?limit=100'),
          },
          { rounds: quick ? 3 : 5, seconds: quick ? 1 : 3, minRatio: 0.3 },
        ),
      );
      return { rows, detail: { rounds: results, storeCount, loadMs } };
    } finally {
      await big.service.stop();
    }
  },
};
