import { Module } from '@nestjs/common';
import { FindingListWriter } from './finding-list-writer.js';

/** Findings: each vulnerability's life on an asset, its triage and due date. */
@Module({
  providers: [FindingListWriter],
  exports: [FindingListWriter],
})
export class FindingsModule {}
