import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiKey } from '../auth/api-key.entity.js';
import { IdempotencyKey } from './idempotency-key.entity.js';
import { IdempotencyKeysService } from './idempotency-keys.service.js';
import { IngestionRecorder } from './ingestion-recorder.service.js';
import { IngestionRun } from './ingestion-run.entity.js';
import { RunInstance } from './run-instance.service.js';
import { RunsController } from './runs.controller.js';
import { RunsService } from './runs.service.js';

/** Ingestion runs (their record and list) and the Idempotency-Key replays. */
@Module({
  imports: [TypeOrmModule.forFeature([IngestionRun, IdempotencyKey, ApiKey])],
  controllers: [RunsController],
  providers: [RunInstance, RunsService, IdempotencyKeysService, IngestionRecorder],
  exports: [IngestionRecorder],
})
export class RunsModule {}
