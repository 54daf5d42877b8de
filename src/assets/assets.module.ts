import { Module } from '@nestjs/common';
import { FindingsModule } from '../findings/findings.module.js';
import { AssetsController } from './assets.controller.js';
import { AssetMergeService } from './asset-merge.service.js';
import { AssetsService } from './assets.service.js';

@Module({
  imports: [FindingsModule],
  controllers: [AssetsController],
  providers: [AssetsService, AssetMergeService],
  exports: [AssetsService],
})
export class AssetsModule {}
