import { Global, Module } from '@nestjs/common';
import { DatabasePoolCollector } from './database-pool.collector.js';
import { HttpMetricsHook } from './http-metrics.hook.js';
import { MetricsServer } from './metrics.server.js';
import { MetricsService } from './metrics.service.js';

/**
 * Prometheus metrics, served on METRICS_PORT when it is set (docs/metrics.md). Global so that
 * the features recording their own (ingestion) need not import it; with metrics off they still
 * record, into a registry nobody reads, at no cost worth counting.
 */
@Global()
@Module({
  providers: [MetricsService, HttpMetricsHook, DatabasePoolCollector, MetricsServer],
  exports: [MetricsService],
})
export class MetricsModule {}
