import { Module } from '@nestjs/common';
import { RunsModule } from '../runs/runs.module.js';
import { IngestController } from './ingest.controller.js';
import { IngestService } from './ingest.service.js';

@Module({ imports: [RunsModule], controllers: [IngestController], providers: [IngestService] })
export class IngestModule {}
