import { Module } from '@nestjs/common';
import { IngestMetrics } from './ingest-metrics.service.js';
import { IngestService } from './ingest.service.js';

/** The ingestion pipeline; its route, which records each run, is the runs module's. */
@Module({ providers: [IngestService, IngestMetrics], exports: [IngestService] })
export class IngestModule {}
