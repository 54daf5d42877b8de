// A body near the 64 MiB maximum (the service's default INGEST_MAX_BYTES): 140,000 assets and
// 140,000 relations ingested into an empty store by a freshly started service, then again with
// deleteStale. The figure is the service's peak resident memory, which must stay bounded.
import { INGEST_MAX_BYTES, ingest, limitRow } from '../harness.mjs';
import { withOptions } from '../lib.mjs';

export default {
  name: 'large-body',
  async run(h, { quick, payload }) {
    const count = quick ? 14_000 : 140_000;
    const { body } = payload(count);
    if (body.length > INGEST_MAX_BYTES)
      throw new Error(`the body is over ${INGEST_MAX_BYTES} bytes`);
    const stale = withOptions(body, { deleteStale: true });
    const { service } = await h.freshService('large');
    try {
      const first = await ingest(service, body);
      const afterFirst = service.peakRssMb();
      const repeat = await ingest(service, stale);
      const mib = (body.length / 1024 / 1024).toFixed(1);
      h.log(
        `  ${mib} MiB body: first ${first.ms.toFixed(0)} ms, repeat with deleteStale ${repeat.ms.toFixed(0)} ms`,
      );
      return {
        rows: [
          limitRow(`peak RSS, ${mib} MiB body, first ingestion (MB)`, afterFirst, 600),
          limitRow(`peak RSS, the same repeated with deleteStale (MB)`, service.peakRssMb(), 600),
          limitRow(
            'worst /api/health answer during them (ms)',
            Math.max(first.worstHealthMs, repeat.worstHealthMs),
            250,
          ),
        ],
        detail: {
          bytes: body.length,
          count,
          firstMs: first.ms,
          repeatMs: repeat.ms,
          stats: [first.stats, repeat.stats],
        },
      };
    } finally {
      await service.stop();
    }
  },
};
