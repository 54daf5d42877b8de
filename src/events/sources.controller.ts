import { Body, Controller, Get, Param, Put, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Roles } from '../common/decorators/roles.decorator.js';
import {
  ApiAuthenticated,
  ApiErrorResponses,
  ApiJsonBodyErrors,
} from '../common/openapi/api-error-responses.decorator.js';
import { NoQueryPipe } from '../common/pipes/no-query.pipe.js';
import { Role } from '../common/role.js';
import { FeedResponse } from './dto/feed-response.dto.js';
import { UpdateFeedDto } from './dto/update-feed.dto.js';
import { SourcesService } from './sources.service.js';

/** The feeds: every signed-in user sees them; an admin sets their cadence. */
@ApiTags('feeds')
@ApiAuthenticated()
@Controller('sources')
export class SourcesController {
  constructor(private readonly sources: SourcesService) {}

  @Get()
  @ApiOperation({
    summary: 'List feeds',
    description:
      'Every source a run named (or given an expectation), by name, with its last runs, its assets and whether it is late.',
  })
  @ApiOkResponse({ type: [FeedResponse] })
  list(@Query(NoQueryPipe) _query: undefined): Promise<FeedResponse[]> {
    return this.sources.list();
  }

  @Put(':name')
  @Roles(Role.Admin)
  @ApiOperation({
    summary: "Set a feed's expected cadence (admin)",
    description:
      'A feed whose last success is older than this is late, and a `feed.late` event is sent once each time it becomes late.',
  })
  @ApiParam({ name: 'name', description: "The feed's name (a run's source)" })
  @ApiOkResponse({ type: FeedResponse })
  @ApiJsonBodyErrors()
  @ApiErrorResponses({ status: 403, description: 'The caller is not an admin' })
  update(@Param('name') name: string, @Body() dto: UpdateFeedDto): Promise<FeedResponse> {
    return this.sources.expect(name, dto);
  }
}
