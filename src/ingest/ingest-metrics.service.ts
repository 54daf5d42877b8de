import { Injectable } from '@nestjs/common';
import { performance } from 'node:perf_hooks';
import { Counter, Histogram } from 'prom-client';
import type { IngestMode } from './ingest-payload.js';
import { MetricsService } from '../metrics/metrics.service.js';
import { statusOf } from '../common/filters/all-exceptions.filter.js';

/** succeeded: stored; rejected: answered 4xx (bad payload, role, conflict); failed: 5xx. */
export type IngestOutcome = 'succeeded' | 'rejected' | 'failed';

/** The mode asked for, or `unknown` when the run ended before its options were read. */
export type IngestModeLabel = IngestMode | 'unknown';

/** What a measured run tells about itself as it goes. */
export interface IngestRunLabels {
  mode?: IngestMode;
}

type Labels = 'outcome' | 'mode';

/** Seconds: from a small merge to the largest bulk body. */
const DURATION_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

/** The status an error is answered with decides whether the client or the service failed. */
export function ingestOutcomeOf(error: unknown): Exclude<IngestOutcome, 'succeeded'> {
  const status = statusOf(error);
  return status >= 400 && status < 500 ? 'rejected' : 'failed';
}

/** Ingestion runs counted by outcome and mode, and their durations. */
@Injectable()
export class IngestMetrics {
  private readonly runs: Counter<Labels>;
  private readonly duration: Histogram<Labels>;

  constructor(metrics: MetricsService) {
    const registers = [metrics.registry];
    this.runs = new Counter({
      name: 'assetmap_ingestions_total',
      help: 'Ingestion runs by outcome (succeeded, rejected, failed) and mode',
      labelNames: ['outcome', 'mode'],
      registers,
    });
    this.duration = new Histogram({
      name: 'assetmap_ingestion_duration_seconds',
      help: 'Duration of ingestion runs, from the body received to the answer, by outcome and mode',
      labelNames: ['outcome', 'mode'],
      buckets: DURATION_BUCKETS,
      registers,
    });
  }

  record(outcome: IngestOutcome, mode: IngestModeLabel, seconds: number): void {
    const labels = { outcome, mode };
    this.runs.inc(labels);
    this.duration.observe(labels, seconds);
  }

  /**
   * Runs one ingestion and records it, whatever its end. `run` sets `labels.mode` once it has
   * read the payload's options.
   */
  async measure<T>(run: (labels: IngestRunLabels) => Promise<T>): Promise<T> {
    const started = performance.now();
    const labels: IngestRunLabels = {};
    const seconds = (): number => (performance.now() - started) / 1000;
    try {
      const result = await run(labels);
      this.record('succeeded', labels.mode ?? 'unknown', seconds());
      return result;
    } catch (error) {
      this.record(ingestOutcomeOf(error), labels.mode ?? 'unknown', seconds());
      throw error;
    }
  }
}
