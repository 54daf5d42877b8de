import { Module } from '@nestjs/common';
import { IngestModule } from '../ingest/ingest.module.js';
import { IngestController } from './ingest.controller.js';
import { IdempotencyKeysService } from './idempotency-keys.service.js';
import { IngestionRecorder } from './ingestion-recorder.service.js';
import { RunInstance } from './run-instance.service.js';
import { RunsController } from './runs.controller.js';
import { RunsService } from './runs.service.js';

/** The ingestion route, its runs (their record and list) and the Idempotency-Key replays. */
@Module({
  imports: [IngestModule],
  controllers: [IngestController, RunsController],
  providers: [RunInstance, RunsService, IdempotencyKeysService, IngestionRecorder],
  exports: [IngestionRecorder],
})
export class RunsModule {}
