import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Roles } from '../common/decorators/roles.decorator.js';
import { PageQueryDto } from '../common/dto/page-query.dto.js';
import {
  ApiAuthenticated,
  ApiErrorResponses,
} from '../common/openapi/api-error-responses.decorator.js';
import { TOTAL_COUNT_HEADER } from '../common/openapi/headers.js';
import { Role } from '../common/role.js';
import type { ChangePage } from '../database/repositories/changes.repository.js';
import { ChangesService } from './changes.service.js';
import { ChangeResponse, toChangeJson } from './dto/change-response.dto.js';
import { ListChangesQueryDto } from './dto/list-changes-query.dto.js';

/** The page as JSON text (toChangeJson), its total in a header. */
function answer({ changes, total }: ChangePage, reply: FastifyReply): string {
  void reply.header('X-Total-Count', total).type('application/json; charset=utf-8');
  return `[${changes.map(toChangeJson).join(',')}]`;
}

@ApiTags('changes')
@ApiAuthenticated()
@Controller()
export class ChangesController {
  constructor(private readonly changes: ChangesService) {}

  @Get('changes')
  @Roles(Role.Admin)
  @ApiOperation({
    summary: 'List changes',
    description:
      'Every recorded write to assets, relations, diagrams, users and API keys, by any route or ingestion, newest first; kept 90 days. The total before paging is in `X-Total-Count`. Admins only.',
  })
  @ApiOkResponse({ type: [ChangeResponse], headers: TOTAL_COUNT_HEADER })
  @ApiErrorResponses(
    { status: 400, description: 'A query parameter is unknown or invalid' },
    { status: 403, description: 'The caller is not an admin' },
  )
  async list(
    @Query() query: ListChangesQueryDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    return answer(await this.changes.list(query), reply);
  }

  @Get('assets/:id/changes')
  @ApiOperation({
    summary: "List an asset's changes",
    description:
      "The asset's recorded changes, newest first, also after it was deleted; kept 90 days. The total before paging is in `X-Total-Count`.",
  })
  @ApiParam({ name: 'id', description: "The asset's id" })
  @ApiOkResponse({ type: [ChangeResponse], headers: TOTAL_COUNT_HEADER })
  @ApiErrorResponses(
    { status: 400, description: 'A query parameter is unknown or invalid' },
    { status: 404, description: 'No asset has this id, and none with it was ever recorded' },
  )
  async forAsset(
    @Param('id') id: string,
    @Query() paging: PageQueryDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    return answer(await this.changes.forAsset(id, paging), reply);
  }
}
