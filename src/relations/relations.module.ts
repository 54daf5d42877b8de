import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Asset } from '../database/entities/asset.entity.js';
import { Relation } from '../database/entities/relation.entity.js';
import { RelationsController } from './relations.controller.js';
import { RelationsService } from './relations.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([Relation, Asset])],
  controllers: [RelationsController],
  providers: [RelationsService],
  exports: [RelationsService],
})
export class RelationsModule {}
