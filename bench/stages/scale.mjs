// A store of a million assets (2 vulnerabilities and 1 service each) and a million relations,
// loaded by ingestion in bodies under the 64 MiB limit: its load time and size on disk, the
// list's throughput against the same list on a store a tenth the size, the search's against
// the plain list, and the graph routes' against their own recursive SQL run through the driver.
import { Buffer } from 'node:buffer';
import { fork } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { INGEST_MAX_BYTES, ingest, limitRow, load, pairedRow, stop } from '../harness.mjs';
import { benchAsset, openRaw } from '../lib.mjs';

/** Assets (and relations) per ingestion body: about 50 MiB each. */
const PER_BODY = 100_000;

/**
 * Assets `from` to `to` - 1 and one relation each. Relations chain each asset to the next, but
 * every tenth asset, which points instead at an earlier asset drawn at random: walks along a
 * chain are as long as asked (host-(10k+1) to host-(10k+7) is 6 hops, no shortcut), and a
 * neighbourhood stays small (no hub: an asset is the target of few random relations).
 */
function scaleBody(from, to) {
  const assets = [];
  const relations = [];
  let seed = from + 1;
  const random = () => ((seed = (seed * 48271) % 2147483647), seed / 2147483647);
  for (let i = from; i < to; i++) {
    assets.push({
      ...benchAsset(i),
      services: [{ port: 22, protocol: 'tcp', name: 'ssh', product: 'OpenSSH', version: '9.2' }],
    });
    const chained = i % 10 !== 0;
    relations.push({
      sourceAssetId: chained ? `host-${i - 1}` : `host-${i}`,
      targetAssetId: chained ? `host-${i}` : `host-${Math.floor(random() * Math.max(i, 1))}`,
      type: chained ? 'link' : 'peer',
      direction: 'mono',
      protocol: 'tcp',
      toPorts: chained ? '22' : '22,443',
    });
  }
  // host-0 has no earlier asset: its relation goes to the next one instead.
  if (from === 0) relations[0].targetAssetId = 'host-1';
  const body = Buffer.from(
    JSON.stringify({ options: { mode: 'merge', source: 'scale' }, assets, relations }),
  );
  if (body.length >= INGEST_MAX_BYTES) throw new Error(`a body of ${body.length} bytes`);
  return body;
}

/** Loads assets 0 to `count` - 1 into the service, a body at a time: milliseconds in all. */
async function loadStore(h, service, count, perBody) {
  let ms = 0;
  for (let from = 0; from < count; from += perBody) {
    const to = Math.min(from + perBody, count);
    const { ms: took } = await ingest(service, scaleBody(from, to));
    ms += took;
    h.log(`  loaded ${to} assets (${(took / 1000).toFixed(1)} s for the last ${to - from})`);
  }
  return ms;
}

/** The store's size on disk: the SQLite file and its WAL, or the schema's tables and indexes. */
async function storeBytes(url) {
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length);
    const size = (path) => {
      try {
        return statSync(path).size;
      } catch {
        return 0;
      }
    };
    return size(file) + size(`${file}-wal`);
  }
  const db = openRaw(url);
  try {
    const [{ bytes }] = await db.all(
      `SELECT SUM(pg_total_relation_size(c.oid)) AS bytes FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'm')`,
    );
    return Number(bytes);
  } finally {
    await db.close();
  }
}

/** The slowest of `times` answers of `url`, one at a time: milliseconds. */
async function worstLatency(url, headers, times) {
  let worst = 0;
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    const response = await fetch(url, { headers });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${url}: ${response.status}`);
    worst = Math.max(worst, performance.now() - started);
  }
  return worst;
}

/** A row of a figure without a baseline nor a target. */
function figureRow(figure, value) {
  return { figure, service: value, baseline: null, ratio: null, target: null, pass: null };
}

export default {
  name: 'scale',
  async run(h, { quick }) {
    const count = quick ? 20_000 : 1_000_000;
    const perBody = quick ? 10_000 : PER_BODY;
    const seconds = quick ? 1 : 3;
    const rounds = quick ? 3 : 5;
    const small = await h.freshService('scale_small');
    const big = await h.freshService('scale_big');
    let bare;
    try {
      h.log(`  the store a tenth the size: ${count / 10} assets`);
      await loadStore(h, small.service, count / 10, perBody);
      h.log(`  the store: ${count} assets`);
      const loadMs = await loadStore(h, big.service, count, perBody);
      const bytes = await storeBytes(big.url);
      const rows = [
        figureRow(`load ${count} assets + ${count} relations by ingestion (s)`, loadMs / 1000),
        figureRow('store size on disk (MiB)', bytes / 2 ** 20),
      ];

      const paired = async (figure, service, baseline, minRatio) =>
        rows.push(await pairedRow(h, figure, { service, baseline }, { rounds, seconds, minRatio }));
      const on = (target, path) => (d) =>
        load(`${target.service.base}${path}`, target.service.auth, d);

      const deep = `offset=${Math.min(50_000, count / 10 - 100)}`;
      for (const [figure, path] of [
        ['list, limit=100, first page (req/s)', '/api/assets?limit=100'],
        [`list, limit=100, ${deep} (req/s)`, `/api/assets?limit=100&${deep}`],
      ])
        await paired(
          `${figure}: ${count} / ${count / 10} assets`,
          on(big, path),
          on(small, path),
          0.5,
        );
      await paired(
        `search=host 12, limit=100 / plain list, ${count} assets (req/s)`,
        on(big, '/api/assets?limit=100&search=host%2012'),
        on(big, '/api/assets?limit=100'),
        0.3,
      );

      // In the middle of the store: host-(10k+1) to host-(10k+7) is a chain of 6 hops.
      const start = `host-${count / 2 + 1}`;
      const end = `host-${count / 2 + 7}`;
      // The dashboard's exposure panel, one request at a time after its two lists: an asset of
      // a finding (for its services), then the assets an internet-facing one reaches on one of
      // them, at the walk's default depth. The dashboard's slowest request is held to 0.2 of
      // the list.
      for (const [figure, route] of [
        ['an asset', `/api/assets/${start}`],
        ['reachable on 22/tcp', `/api/assets/${start}/reachable?port=22&protocol=tcp`],
      ])
        await paired(
          `dashboard, exposure: ${figure} / plain list, ${count} assets (req/s)`,
          on(big, route),
          on(big, '/api/assets?limit=100'),
          0.2,
        );
      const path = await fetch(
        `${big.service.base}/api/graph/path?from=${start}&to=${end}&maxDepth=6`,
        { headers: big.service.auth },
      ).then((response) => response.json());
      if (path.relations?.length !== 6)
        throw new Error(`the path is not 6 hops: ${JSON.stringify(path)}`);
      bare = fork(join(h.root, 'bench/baseline-server.mjs'), ['0', big.url], {
        stdio: 'inherit',
      });
      const { port } = await new Promise((resolve) => bare.once('message', resolve));
      for (const [figure, route] of [
        ['graph?depth=3', `/api/assets/${start}/graph?depth=3`],
        ['path across 6 hops', `/api/graph/path?from=${start}&to=${end}&maxDepth=6`],
        ['reachable, maxDepth=6', `/api/assets/${start}/reachable?port=22&maxDepth=6`],
      ]) {
        const url = `${big.service.base}${route}`;
        rows.push(
          limitRow(
            `${figure}, ${count} assets: slowest of 10 answers (ms)`,
            await worstLatency(url, big.service.auth, 10),
            1000,
          ),
        );
        await paired(
          `${figure}, ${count} assets / the same SQL, bare Fastify + raw driver (req/s)`,
          (d) => load(url, big.service.auth, d),
          (d) => load(`http://127.0.0.1:${port}${route}`, {}, d),
          0.3,
        );
      }
      return { rows, detail: { count, perBody, loadMs, bytes } };
    } finally {
      if (bare) await stop(bare);
      await small.service.stop();
      await big.service.stop();
    }
  },
};
