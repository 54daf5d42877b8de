import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import {
  ApiAuthenticated,
  ApiErrorResponses,
} from '../common/openapi/api-error-responses.decorator.js';
import { KeyScope } from '../common/decorators/key-scope.decorator.js';
import { TOTAL_COUNT_HEADER } from '../common/openapi/headers.js';
import { Scope } from '../common/scope.js';
import { ListRunsQueryDto } from './dto/list-runs-query.dto.js';
import { RunResponse, toRunResponse } from './dto/run-response.dto.js';
import { RunsService } from './runs.service.js';

/** Every signed-in user may see the ingestion runs; an API key with `read` or `ingest`. */
@ApiTags('ingestion')
@KeyScope(Scope.Read, Scope.Ingest)
@ApiAuthenticated()
@Controller('integrations/runs')
export class RunsController {
  constructor(private readonly runs: RunsService) {}

  @Get()
  @ApiOperation({
    summary: 'List ingestion runs',
    description:
      'Every ingestion request that passed authentication and the role check, whatever its end, newest first; kept 90 days. The total before paging is in `X-Total-Count`.',
  })
  @ApiOkResponse({ type: [RunResponse], headers: TOTAL_COUNT_HEADER })
  @ApiErrorResponses({ status: 400, description: 'A query parameter is unknown or invalid' })
  async list(
    @Query() query: ListRunsQueryDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<RunResponse[]> {
    const { runs, total } = await this.runs.list(query);
    void reply.header('X-Total-Count', total);
    return runs.map(toRunResponse);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get an ingestion run' })
  @ApiParam({ name: 'id', description: "The run's id, the ingestion answer's runId" })
  @ApiOkResponse({ type: RunResponse })
  @ApiErrorResponses({ status: 404, description: 'No run has this id' })
  async get(@Param('id') id: string): Promise<RunResponse> {
    return toRunResponse(await this.runs.getById(id));
  }
}
