// Scanner formats: COUNT hosts (5 open ports each) as Nmap XML against the same content as
// JSON, both a first ingestion into an emptied store, in paired rounds; the 62.7 MiB JSON body
// of large-body gzipped against plain; and the peak memory of a freshly started service fed the
// largest Nmap XML the default INGEST_MAX_BYTES takes, sent as is, then again gzipped.
import { gzipSync } from 'node:zlib';
import { INGEST_MAX_BYTES, ingest, limitRow, ratioRow } from '../harness.mjs';
import { hostsWithin, nmapAsJson, nmapXml } from '../scan-payloads.mjs';

const SOURCE = 'nmap';
const XML = { contentType: 'application/xml', query: { source: SOURCE } };
/** The 100,000-host XML is about 150 MiB: this stage's service takes bodies up to 256 MiB. */
const LARGE_LIMIT = { INGEST_MAX_BYTES: String(256 * 1024 * 1024) };

/** The stats without their `duration`. */
const counts = ({ duration: _duration, ...rest }) => rest;

/** Both answers must say the same: the XML became the JSON's assets. */
function sameStats(a, b, what) {
  const left = counts(a.stats);
  const right = counts(b.stats);
  if (JSON.stringify(left) !== JSON.stringify(right))
    throw new Error(`${what}: ${JSON.stringify(left)} differs from ${JSON.stringify(right)}`);
}

/** `rounds` paired rounds of `sides` (name → ingestion), each on an emptied store. */
async function pairedRounds(h, url, rounds, sides) {
  const results = [];
  const names = Object.keys(sides);
  for (let round = 0; round < rounds; round++) {
    const result = {};
    const answers = {};
    // Which side goes first alternates from round to round.
    const order = round % 2 === 0 ? names : [...names].reverse();
    for (const name of order) {
      await h.wipe(url);
      answers[name] = await sides[name]();
      result[name] = answers[name].ms;
    }
    sameStats(answers[names[0]], answers[names[1]], `round ${round + 1}`);
    h.log(
      `  round ${round + 1}: ${names.map((n) => `${n} ${result[n].toFixed(0)} ms`).join(', ')}`,
    );
    results.push(result);
  }
  return results;
}

export default {
  name: 'formats',
  async run(h, { quick, count, payload }) {
    const rounds = quick ? 1 : 3;
    const xml = nmapXml(count);
    const json = nmapAsJson(count, SOURCE);
    const large = payload(quick ? 14_000 : 140_000).body;
    const gzipped = gzipSync(large);
    const mib = (bytes) => (bytes / 1024 / 1024).toFixed(1);
    h.log(
      `  Nmap XML ${mib(xml.length)} MiB, as JSON ${mib(json.length)} MiB; ` +
        `${mib(large.length)} MiB JSON gzipped to ${mib(gzipped.length)} MiB`,
    );

    const { url, service } = await h.freshService('formats', LARGE_LIMIT);
    let xmlRounds;
    let gzipRounds;
    try {
      xmlRounds = await pairedRounds(h, url, rounds, {
        xml: () => ingest(service, xml, XML),
        json: () => ingest(service, json),
      });
      gzipRounds = await pairedRounds(h, url, rounds, {
        gzip: () => ingest(service, gzipped, { headers: { 'content-encoding': 'gzip' } }),
        plain: () => ingest(service, large),
      });
    } finally {
      await service.stop();
    }

    const hosts = hostsWithin(INGEST_MAX_BYTES);
    const largest = nmapXml(hosts);
    const fresh = await h.freshService('formats_memory');
    let first;
    let repeat;
    let peak;
    try {
      first = await ingest(fresh.service, largest, XML);
      repeat = await ingest(fresh.service, gzipSync(largest), {
        ...XML,
        headers: { 'content-encoding': 'gzip' },
      });
      peak = fresh.service.peakRssMb();
    } finally {
      await fresh.service.stop();
    }
    const worst = Math.max(first.worstHealthMs, repeat.worstHealthMs);
    return {
      rows: [
        ratioRow(`Nmap XML, ${count} hosts / the same as JSON`, xmlRounds, 'xml', 'json', 2),
        ratioRow(`${mib(large.length)} MiB JSON gzipped / plain`, gzipRounds, 'gzip', 'plain', 1.2),
        limitRow(
          `peak RSS, ${mib(largest.length)} MiB Nmap XML (${hosts} hosts), as is then gzipped (MB)`,
          peak,
          600,
        ),
        limitRow('worst /api/health answer during them (ms)', worst, 250),
      ],
      detail: {
        xmlBytes: xml.length,
        jsonBytes: json.length,
        gzipBytes: gzipped.length,
        plainBytes: large.length,
        largestXmlBytes: largest.length,
        largestXmlMs: [first.ms, repeat.ms],
        xmlRounds,
        gzipRounds,
      },
    };
  },
};
