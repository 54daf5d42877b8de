// Scanner formats: COUNT hosts (5 open ports each) as Nmap XML against the same content as
// JSON, both a first ingestion into an emptied store, in paired rounds; the 62.7 MiB JSON body
// of large-body gzipped against plain; and the peak memory of a freshly started service fed the
// largest Nmap XML the default INGEST_MAX_BYTES takes, sent as is, then again gzipped. Then the
// same for Greenbone, masscan (-oX and -oJ), Nuclei and Trivy: COUNT hosts (Trivy: COUNT / 10
// images of 50 vulnerabilities) against the same as JSON, and a fresh service's peak memory
// after a body of each as large as INGEST_MAX_BYTES takes.
import { gzipSync } from 'node:zlib';
import { INGEST_MAX_BYTES, ingest, limitRow, ratioRow } from '../harness.mjs';
import {
  greenboneAsJson,
  greenboneXml,
  masscanAsJson,
  masscanJson,
  masscanXml,
  nucleiAsJson,
  nucleiJsonl,
  trivyAsJson,
  trivyJson,
  unitsWithin,
} from '../more-scan-payloads.mjs';
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

/** How many hosts (Trivy: images) of a format and of its twin checkTwin compares. */
const TWIN_UNITS = 3;

/** A store's assets as the API shows them, each but its id and times, in a stable order. */
async function storedAssets(service) {
  const response = await fetch(`${service.base}/api/assets?limit=1000`, { headers: service.auth });
  if (response.status !== 200) throw new Error(`the asset list answered ${response.status}`);
  const { assets } = await response.json();
  return assets
    .map(({ id: _id, ...asset }) =>
      JSON.stringify(asset, (key, value) => (/At$/.test(key) ? undefined : value)),
    )
    .sort()
    .join('\n');
}

/**
 * A few units of a format and of its JSON twin (`sides`: format, json), each ingested into an
 * emptied store, must make the same assets, or the twin's baseline would write other rows than
 * the format's side (the same stats, which every round checks, can hide different lists).
 */
async function checkTwin(h, url, service, label, sides) {
  const stored = {};
  for (const [name, side] of Object.entries(sides)) {
    await h.wipe(url);
    await side();
    stored[name] = await storedAssets(service);
  }
  if (stored.format !== stored.json)
    throw new Error(
      `${label}: its JSON twin makes other assets than the format\n${stored.format}\nagainst\n${stored.json}`,
    );
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

/** The formats of section 21: each body's generator, its JSON twin, how it is sent. */
const MORE_FORMATS = [
  {
    label: 'Greenbone XML',
    units: 'hosts',
    perHost: 1,
    body: greenboneXml,
    json: greenboneAsJson,
    send: { contentType: 'application/xml' },
  },
  {
    label: 'masscan -oX',
    units: 'hosts',
    perHost: 1,
    body: masscanXml,
    json: masscanAsJson,
    send: { contentType: 'application/xml' },
  },
  {
    label: 'masscan -oJ',
    units: 'hosts',
    perHost: 1,
    body: masscanJson,
    json: masscanAsJson,
    send: { contentType: 'application/json', format: 'masscan' },
  },
  {
    label: 'Nuclei JSON Lines',
    units: 'hosts',
    perHost: 1,
    body: nucleiJsonl,
    json: nucleiAsJson,
    send: { contentType: 'application/x-ndjson', format: 'nuclei' },
  },
  {
    label: 'Trivy JSON',
    units: 'images of 50 vulnerabilities',
    perHost: 10,
    body: trivyJson,
    json: trivyAsJson,
    send: { contentType: 'application/json', format: 'trivy' },
  },
];

/** The ingestion options of a format's body: its media type, `format` and the source. */
function sendOptions({ contentType, format }) {
  return { contentType, query: { ...(format && { format }), source: SOURCE } };
}

/** Each format of MORE_FORMATS against its JSON twin; then its peak memory at the body limit. */
async function moreFormats(h, { count, rounds }) {
  const rows = [];
  const detail = {};
  const mib = (bytes) => (bytes / 1024 / 1024).toFixed(1);
  const { url, service } = await h.freshService('formats_more', LARGE_LIMIT);
  try {
    for (const format of MORE_FORMATS) {
      const units = Math.floor(count / format.perHost);
      const body = format.body(units);
      const json = format.json(units, SOURCE);
      h.log(`  ${format.label} ${mib(body.length)} MiB, as JSON ${mib(json.length)} MiB`);
      await checkTwin(h, url, service, format.label, {
        format: () => ingest(service, format.body(TWIN_UNITS), sendOptions(format.send)),
        json: () => ingest(service, format.json(TWIN_UNITS, SOURCE)),
      });
      const result = await pairedRounds(h, url, rounds, {
        format: () => ingest(service, body, sendOptions(format.send)),
        json: () => ingest(service, json),
      });
      rows.push(
        ratioRow(
          `${format.label}, ${units} ${format.units} / the same as JSON`,
          result,
          'format',
          'json',
          2,
        ),
      );
      detail[format.label] = { bytes: body.length, jsonBytes: json.length, rounds: result };
    }
  } finally {
    await service.stop();
  }
  let worst = 0;
  for (const format of MORE_FORMATS) {
    const units = unitsWithin(format.body, INGEST_MAX_BYTES);
    const body = format.body(units);
    const fresh = await h.freshService('formats_more_memory');
    try {
      const answer = await ingest(fresh.service, body, sendOptions(format.send));
      worst = Math.max(worst, answer.worstHealthMs);
      rows.push(
        limitRow(
          `peak RSS, ${mib(body.length)} MiB ${format.label} (${units} ${format.units}) (MB)`,
          fresh.service.peakRssMb(),
          600,
        ),
      );
      detail[format.label].largest = { bytes: body.length, units, ms: answer.ms };
    } finally {
      await fresh.service.stop();
    }
  }
  rows.push(
    limitRow(
      'worst /api/health answer during the Greenbone, masscan, Nuclei and Trivy bodies (ms)',
      worst,
      250,
    ),
  );
  return { rows, detail };
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
      await checkTwin(h, url, service, 'Nmap XML', {
        format: () => ingest(service, nmapXml(TWIN_UNITS), XML),
        json: () => ingest(service, nmapAsJson(TWIN_UNITS, SOURCE)),
      });
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
    const more = await moreFormats(h, { count, rounds });
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
        ...more.rows,
      ],
      detail: {
        more: more.detail,
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
