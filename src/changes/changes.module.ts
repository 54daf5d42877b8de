import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Asset } from '../database/entities/asset.entity.js';
import { Change } from '../database/entities/change.entity.js';
import { ChangesRetention } from './changes-retention.service.js';
import { ChangesController } from './changes.controller.js';
import { ChangesService } from './changes.service.js';

/** The change history: every feature that writes records its changes through ChangesService. */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([Change, Asset])],
  controllers: [ChangesController],
  providers: [ChangesService, ChangesRetention],
  exports: [ChangesService],
})
export class ChangesModule {}
