import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Asset } from '../database/entities/asset.entity.js';
import { AssetsController } from './assets.controller.js';
import { AssetsService } from './assets.service.js';
import { Vulnerability } from '../database/entities/vulnerability.entity.js';

@Module({
  imports: [TypeOrmModule.forFeature([Asset, Vulnerability])],
  controllers: [AssetsController],
  providers: [AssetsService],
  exports: [AssetsService],
})
export class AssetsModule {}
