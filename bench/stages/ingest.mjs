// The first and the repeated ingestion of COUNT assets (2 vulnerabilities each) and COUNT
// relations, against the two baselines of baseline-ingest.mjs (raw and bulk), in paired rounds on
// emptied stores; the worst /api/health answer meanwhile; the service's peak memory.
import { ingest, limitRow, ratioRow } from '../harness.mjs';

export default {
  name: 'ingest',
  async run(h, { quick, count, payload }) {
    const rounds = quick ? 1 : 3;
    const { file, body } = payload(count);
    const baselineDb = await h.baselineDatabase('ingest_baseline');
    const { url: serviceDb, service } = await h.freshService('ingest');
    try {
      const results = [];
      let worstHealthMs = 0;
      for (let round = 0; round < rounds; round++) {
        const result = {};
        const serviceSide = async () => {
          await h.wipe(serviceDb);
          const first = await ingest(service, body);
          const repeat = await ingest(service, body);
          Object.assign(result, { first: first.ms, repeat: repeat.ms });
          worstHealthMs = Math.max(worstHealthMs, first.worstHealthMs, repeat.worstHealthMs);
        };
        const baselineSide = async () => {
          result.raw = await h.baselineIngest(baselineDb, file, 'raw');
          result.bulk = await h.baselineIngest(baselineDb, file, 'bulk');
        };
        // Which side goes first alternates: neither always runs just after the other.
        if (round % 2 === 0) {
          await baselineSide();
          await serviceSide();
        } else {
          await serviceSide();
          await baselineSide();
        }
        results.push(result);
        h.log(
          `  ingest round ${round + 1}: ${JSON.stringify(result, (_k, v) => (typeof v === 'number' ? Math.round(v) : v))}`,
        );
      }
      const size = `${count / 1000}k + ${count / 1000}k`;
      return {
        rows: [
          ratioRow(`first ingestion ${size} / raw driver (ms)`, results, 'first', 'raw', 1.5),
          ratioRow(`repeated ingestion ${size} / raw driver (ms)`, results, 'repeat', 'raw', 1.5),
          ratioRow(`first ingestion ${size} / bulk load (ms)`, results, 'first', 'bulk'),
          ratioRow(`repeated ingestion ${size} / bulk load (ms)`, results, 'repeat', 'bulk'),
          limitRow('worst /api/health answer during ingestion (ms)', worstHealthMs, 250),
          limitRow(`peak RSS of the service, ${size} (MB)`, service.peakRssMb(), 600),
        ],
        detail: { rounds: results },
      };
    } finally {
      await service.stop();
    }
  },
};
