import { Body, Controller, HttpCode, HttpStatus, Post } from '@nestjs/common';
import { v7 as timeOrderedUuid } from 'uuid';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../common/decorators/current-user.decorator.js';
import { Roles } from '../common/decorators/roles.decorator.js';
import {
  ApiAuthenticated,
  ApiErrorResponses,
} from '../common/openapi/api-error-responses.decorator.js';
import type { Principal } from '../common/principal.js';
import { Role } from '../common/role.js';
import { IngestRequestDto } from './dto/ingest-request.dto.js';
import { IngestResponse } from './dto/ingest-response.dto.js';
import { IngestService } from './ingest.service.js';

export const INGEST_PATH = '/api/integrations/ingest';

@ApiTags('ingestion')
@ApiAuthenticated()
@Controller('integrations')
export class IngestController {
  constructor(private readonly ingestion: IngestService) {}

  /**
   * The body is checked by parseIngestPayload (validate/), not the global ValidationPipe: typed
   * `unknown`, it passes through untouched, which keeps a hundred thousand items fast.
   * IngestRequestDto only documents it (@ApiBody leaves the parameter's type, and so the pipe,
   * alone).
   */
  @Roles(Role.Editor)
  @Post('ingest')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    summary: 'Ingest scanner output (editor; replace mode: admin)',
    description:
      'Items are checked in order (assets, then relations); the first bad one is named by its path and nothing is stored. The write is one transaction: it all lands or none of it does. Items are matched against the state before the ingestion. Ingestions run one at a time; other requests are served meanwhile. Running the same merge payload twice changes nothing.',
  })
  @ApiBody({
    type: IngestRequestDto,
    description: 'Assets, relations and options; every part optional',
    examples: {
      merge: {
        summary: 'merge (the default)',
        value: {
          options: { mode: 'merge', source: 'nmap-dmz' },
          assets: [
            {
              id: 'fw-1',
              name: 'fw-1',
              ip: '10.0.0.1',
              type: 'firewall',
              vulnerabilities: [
                {
                  id: 'CVE-2024-3400',
                  score: 10,
                  summary: 'PAN-OS RCE',
                  publishedDate: '2024-04-12',
                },
              ],
            },
            { id: 'web-1', name: 'web-1', ip: '10.0.0.2', type: 'server' },
          ],
          relations: [
            { sourceAssetId: 'web-1', targetAssetId: 'fw-1', type: 'route', toPorts: '443' },
          ],
        },
      },
      deleteStale: {
        summary: 'merge, deleting what this source no longer reports',
        value: {
          options: { deleteStale: true, source: 'nmap-dmz' },
          assets: [{ id: 'fw-1' }, { id: 'web-1' }],
        },
      },
      append: {
        summary: 'append',
        value: { options: { mode: 'append' }, assets: [{ name: 'laptop-17', ip: '10.2.0.17' }] },
      },
      replace: {
        summary: 'replace (admin)',
        value: { options: { mode: 'replace' }, assets: [{ id: 'fw-1', name: 'fw-1' }] },
      },
    },
  })
  @ApiOkResponse({ type: IngestResponse })
  @ApiErrorResponses(
    {
      status: 400,
      description:
        'An invalid item, named by its path (`assets[57].ip must be an IP address`, `relations[3].targetAssetId refers to no asset`), a repeated id, or deleteStale with append',
    },
    {
      status: 403,
      description: 'The caller is a viewer, or asks for replace mode without the admin role',
    },
    { status: 409, description: 'append mode: an item id is already stored' },
    { status: 413, description: 'Body larger than INGEST_MAX_BYTES (64 MiB by default)' },
    415,
  )
  ingest(@CurrentUser() caller: Principal, @Body() body: unknown): Promise<IngestResponse> {
    return this.ingestion.ingest(caller, body, { runId: timeOrderedUuid() });
  }
}
