import { describe, expect, it } from '@jest/globals';
import { ForbiddenException, InternalServerErrorException } from '@nestjs/common';
import { ConflictError } from '../common/errors/conflict.error.js';
import { ForbiddenError } from '../common/errors/forbidden.error.js';
import { InvalidInputError } from '../common/errors/invalid-input.error.js';
import { UnavailableError } from '../common/errors/unavailable.error.js';
import { loadConfig } from '../config/app-config.js';
import { IngestMetrics, ingestOutcomeOf } from './ingest-metrics.service.js';
import { MetricsService } from '../metrics/metrics.service.js';

describe('ingestOutcomeOf', () => {
  it.each([
    [new InvalidInputError('assets[0].ip must be an IP address'), 'rejected'],
    [new ForbiddenError('replace mode requires the admin role'), 'rejected'],
    [new ConflictError('already stored'), 'rejected'],
    [new UnavailableError('Not ready: shutting down'), 'failed'],
    [new ForbiddenException('This action requires the editor role'), 'rejected'],
    [Object.assign(new Error('Body is too large'), { statusCode: 413 }), 'rejected'],
    [new InternalServerErrorException(), 'failed'],
    [new Error('connection terminated'), 'failed'],
    [Object.assign(new Error('unavailable'), { statusCode: 503 }), 'failed'],
    ['a string', 'failed'],
    [null, 'failed'],
  ])('classes %p as %s', (error, outcome) => {
    expect(ingestOutcomeOf(error)).toBe(outcome);
  });
});

describe('IngestMetrics.measure', () => {
  const setUp = () => {
    const metrics = new MetricsService(loadConfig({}));
    return { metrics, ingest: new IngestMetrics(metrics) };
  };
  const runs = async (metrics: MetricsService) =>
    (await metrics.registry.getSingleMetric('assetmap_ingestions_total')!.get()).values.map(
      ({ labels, value }) => ({ ...labels, value }),
    );

  it('records the outcome under the mode the run noted, and hands its result or error on', async () => {
    const { metrics, ingest } = setUp();
    await expect(
      ingest.measure(async (labels) => {
        labels.mode = 'replace';
        return 'stored';
      }),
    ).resolves.toBe('stored');
    const failure = new Error('disk full');
    await expect(
      ingest.measure(async (labels) => {
        labels.mode = 'merge';
        throw failure;
      }),
    ).rejects.toBe(failure);
    await expect(
      ingest.measure(() => Promise.reject(new InvalidInputError('Body is not valid JSON'))),
    ).rejects.toBeInstanceOf(InvalidInputError);

    expect(await runs(metrics)).toEqual([
      { outcome: 'succeeded', mode: 'replace', value: 1 },
      { outcome: 'failed', mode: 'merge', value: 1 },
      { outcome: 'rejected', mode: 'unknown', value: 1 },
    ]);
    const text = await metrics.render();
    expect(text.match(/^assetmap_ingestion_duration_seconds_count\{.*\} 1$/gm)).toHaveLength(3);
  });
});
