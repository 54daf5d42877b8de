import { Module } from '@nestjs/common';
import { AssetsModule } from '../assets/assets.module.js';
import { GraphController } from './graph.controller.js';
import { GraphService } from './graph.service.js';

@Module({
  imports: [AssetsModule],
  controllers: [GraphController],
  providers: [GraphService],
})
export class GraphModule {}
