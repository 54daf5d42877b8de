import { Module } from '@nestjs/common';
import { FindingListWriter } from './finding-list-writer.js';
import { FindingsController } from './findings.controller.js';
import { FindingsService } from './findings.service.js';

/** Findings: each vulnerability's life on an asset, its triage and due date. */
@Module({
  controllers: [FindingsController],
  providers: [FindingListWriter, FindingsService],
  exports: [FindingListWriter],
})
export class FindingsModule {}
