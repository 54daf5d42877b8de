import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AssetsModule } from '../assets/assets.module.js';
import { Relation } from '../database/entities/relation.entity.js';
import { GraphController } from './graph.controller.js';
import { GraphService } from './graph.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([Relation]), AssetsModule],
  controllers: [GraphController],
  providers: [GraphService],
})
export class GraphModule {}
