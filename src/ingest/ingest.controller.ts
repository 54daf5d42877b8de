import { Body, Controller, HttpCode, HttpStatus, Post } from '@nestjs/common';
import { CurrentUser } from '../common/decorators/current-user.decorator.js';
import { Roles } from '../common/decorators/roles.decorator.js';
import type { Principal } from '../common/principal.js';
import { Role } from '../common/role.js';
import type { IngestResponse } from './dto/ingest-response.dto.js';
import { IngestService } from './ingest.service.js';

export const INGEST_PATH = '/api/integrations/ingest';

@Controller('integrations')
export class IngestController {
  constructor(private readonly ingestion: IngestService) {}

  /**
   * The body is checked by parseIngestPayload, not the global ValidationPipe: typed `unknown`,
   * it passes through untouched, which keeps a hundred thousand items fast.
   */
  @Roles(Role.Editor)
  @Post('ingest')
  @HttpCode(HttpStatus.OK)
  ingest(@CurrentUser() caller: Principal, @Body() body: unknown): Promise<IngestResponse> {
    return this.ingestion.ingest(caller, body);
  }
}
