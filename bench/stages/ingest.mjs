// The first and the repeated ingestion of COUNT assets (2 vulnerabilities each) and COUNT
// relations, against the two baselines of baseline-ingest.mjs (raw and bulk), in paired rounds on
// emptied stores; then a dry run of the same payload on the stored one, against the repeated
// ingestion; the worst /api/health answer meanwhile; the service's peak memory. The same first
// and repeated ingestion on a service with its change history off (CHANGE_HISTORY=off, a
// bench-only setting) gives what the change records cost.
import { ingest, IngestRefused, inTurn, limitRow, ratioRow } from '../harness.mjs';
import { withOptions } from '../lib.mjs';

/**
 * A dry run does the real run's work but its writes, which for an unchanged payload are few: it
 * may take as long as the real run, never longer.
 */
const DRY_RUN_MAX_RATIO = 1;

/** The stats without their `duration`: what a dry run must give as the real run gave. */
const counts = ({ duration: _duration, ...rest }) => rest;

/**
 * The dry run of the payload just ingested again: `{ refused }` when the service answers 400 (a
 * service without dry runs), otherwise the measure, checked against the repeated run's answer.
 */
async function dryRun(service, body, repeat, count) {
  let dry;
  try {
    dry = await ingest(service, body);
  } catch (error) {
    if (error instanceof IngestRefused && error.status === 400) return { refused: error };
    throw error;
  }
  if (dry.dryRun !== true) throw new Error(`the dry run answered "dryRun": ${dry.dryRun}`);
  const expected = JSON.stringify(counts(repeat.stats));
  const got = JSON.stringify(counts(dry.stats));
  if (got !== expected)
    throw new Error(`the dry run's stats ${got} are not the repeated run's ${expected}`);
  // The repeated run itself: with a payload the store already holds, every item is unchanged.
  for (const kind of ['assets', 'relations'])
    for (const [outcome, n] of [
      ['Created', 0],
      ['Updated', 0],
      ['Unchanged', count],
      ['Deleted', 0],
    ])
      if (repeat.stats[kind + outcome] !== n)
        throw new Error(
          `the repeated run's ${kind + outcome} is ${repeat.stats[kind + outcome]}, not ${n}`,
        );
  return dry;
}

export default {
  name: 'ingest',
  async run(h, { quick, count, payload }) {
    const rounds = quick ? 1 : 3;
    const { file, body } = payload(count);
    const dryBody = withOptions(body, { dryRun: true });
    const baselineDb = await h.baselineDatabase('ingest_baseline');
    const { url: serviceDb, service } = await h.freshService('ingest');
    const { url: offDb, service: off } = await h.freshService('ingest_off', {
      CHANGE_HISTORY: 'off',
    });
    try {
      const results = [];
      let worstHealthMs = 0;
      /** The service's refusal of the dry run, if it refused it: not asked again. */
      let dryRefused = null;
      for (let round = 0; round < rounds; round++) {
        const result = {};
        const serviceSide = async () => {
          await h.wipe(serviceDb);
          const first = await ingest(service, body);
          const repeat = await ingest(service, body);
          Object.assign(result, { first: first.ms, repeat: repeat.ms });
          worstHealthMs = Math.max(worstHealthMs, first.worstHealthMs, repeat.worstHealthMs);
          if (dryRefused) return;
          const dry = await dryRun(service, dryBody, repeat, count);
          if (dry.refused) {
            dryRefused = dry.refused;
            h.log(`  the dry run was refused: ${dryRefused.message}`);
            return;
          }
          result.dry = dry.ms;
          worstHealthMs = Math.max(worstHealthMs, dry.worstHealthMs);
        };
        const baselineSide = async () => {
          result.raw = await h.baselineIngest(baselineDb, file, 'raw');
          result.bulk = await h.baselineIngest(baselineDb, file, 'bulk');
        };
        const historyOffSide = async () => {
          await h.wipe(offDb);
          result.firstOff = (await ingest(off, body)).ms;
          result.repeatOff = (await ingest(off, body)).ms;
        };
        await inTurn(round, [baselineSide, historyOffSide, serviceSide]);
        results.push(result);
        h.log(
          `  ingest round ${round + 1}: ${JSON.stringify(result, (_k, v) => (typeof v === 'number' ? Math.round(v) : v))}`,
        );
      }
      const size = `${count / 1000}k + ${count / 1000}k`;
      const dryFigure = `dry run ${count / 1000}k on the stored ${count / 1000}k / repeated ingestion (ms)`;
      return {
        rows: [
          ratioRow(`first ingestion ${size} / raw driver (ms)`, results, 'first', 'raw', 1.5),
          ratioRow(`repeated ingestion ${size} / raw driver (ms)`, results, 'repeat', 'raw', 1.5),
          dryRefused
            ? {
                figure: `${dryFigure}: not measured, ${dryRefused.message}`,
                service: null,
                baseline: null,
                ratio: null,
                target: `<= ${DRY_RUN_MAX_RATIO}`,
                pass: false,
              }
            : ratioRow(dryFigure, results, 'dry', 'repeat', DRY_RUN_MAX_RATIO),
          ratioRow(
            `first ingestion ${size} / the same, change history off (ms)`,
            results,
            'first',
            'firstOff',
            1.3,
          ),
          ratioRow(
            `repeated ingestion ${size} / the same, change history off (ms)`,
            results,
            'repeat',
            'repeatOff',
            1.3,
          ),
          ratioRow(`first ingestion ${size} / bulk load (ms)`, results, 'first', 'bulk'),
          ratioRow(`repeated ingestion ${size} / bulk load (ms)`, results, 'repeat', 'bulk'),
          limitRow('worst /api/health answer during ingestion (ms)', worstHealthMs, 250),
          limitRow(`peak RSS of the service, ${size} (MB)`, service.peakRssMb(), 600),
        ],
        detail: { rounds: results },
      };
    } finally {
      await service.stop();
      await off.stop();
    }
  },
};
