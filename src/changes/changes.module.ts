import { Module } from '@nestjs/common';
import { ChangesRetention } from './changes-retention.service.js';
import { ChangesController } from './changes.controller.js';
import { ChangesService } from './changes.service.js';

/** The change history: its lists and its retention (InventoryWriter records the changes). */
@Module({
  controllers: [ChangesController],
  providers: [ChangesService, ChangesRetention],
})
export class ChangesModule {}
