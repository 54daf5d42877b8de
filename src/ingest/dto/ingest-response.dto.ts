import type { IngestCounts } from '../ingest-run.js';

export class IngestStats implements IngestCounts {
  assetsCreated: number;
  /** Matched assets whose stored values changed; an identical item writes nothing. */
  assetsUpdated: number;
  assetsDeleted: number;
  relationsCreated: number;
  relationsUpdated: number;
  /** Deleted explicitly or with a deleted asset. */
  relationsDeleted: number;
  /** Vulnerability records written. */
  vulnerabilities: number;
  /** Elapsed time with its unit, such as "412ms". */
  duration: string;
}

export class IngestResponse {
  success: true;
  stats: IngestStats;
}
