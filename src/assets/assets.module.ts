import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Asset } from './asset.entity.js';
import { AssetsController } from './assets.controller.js';
import { AssetsService } from './assets.service.js';
import { Vulnerability } from './vulnerability.entity.js';

@Module({
  imports: [TypeOrmModule.forFeature([Asset, Vulnerability])],
  controllers: [AssetsController],
  providers: [AssetsService],
  exports: [AssetsService],
})
export class AssetsModule {}
