import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiKey } from '../database/entities/api-key.entity.js';
import { IdempotencyKey } from '../database/entities/idempotency-key.entity.js';
import { IngestModule } from '../ingest/ingest.module.js';
import { IngestController } from './ingest.controller.js';
import { IdempotencyKeysService } from './idempotency-keys.service.js';
import { IngestionRecorder } from './ingestion-recorder.service.js';
import { IngestionRun } from '../database/entities/ingestion-run.entity.js';
import { RunInstance } from './run-instance.service.js';
import { RunsController } from './runs.controller.js';
import { RunsService } from './runs.service.js';

/** The ingestion route, its runs (their record and list) and the Idempotency-Key replays. */
@Module({
  imports: [TypeOrmModule.forFeature([IngestionRun, IdempotencyKey, ApiKey]), IngestModule],
  controllers: [IngestController, RunsController],
  providers: [RunInstance, RunsService, IdempotencyKeysService, IngestionRecorder],
  exports: [IngestionRecorder],
})
export class RunsModule {}
