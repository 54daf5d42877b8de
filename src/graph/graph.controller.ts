import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  ApiAuthenticated,
  ApiErrorResponses,
} from '../common/openapi/api-error-responses.decorator.js';
import { GraphQueryDto } from './dto/graph-query.dto.js';
import { GraphResponse } from './dto/graph-response.dto.js';
import { PathQueryDto } from './dto/path-query.dto.js';
import { ReachableAssetResponse } from './dto/reachable-asset-response.dto.js';
import { ReachableQueryDto } from './dto/reachable-query.dto.js';
import { GraphService } from './graph.service.js';

const ASSET_ID = ApiParam({
  name: 'id',
  description: 'The asset id: a UUID, or the id given at ingestion',
});
const BAD_QUERY = {
  status: 400,
  description: 'A query parameter is unknown, missing or invalid',
} as const;
const NO_ASSET = { status: 404, description: 'No asset has this id' } as const;

/** Walks along relations; everyone signed in reads them, as they read assets and relations. */
@ApiTags('graph')
@ApiAuthenticated()
@Controller()
export class GraphController {
  constructor(private readonly graph: GraphService) {}

  @Get('assets/:id/graph')
  @ApiOperation({
    summary: "An asset's neighbourhood",
    description:
      'The asset and every asset within `depth` hops, walking relations either way whatever their direction (only those of `type`, when given); nearest first, the asset itself first of all, then by id. `relations`: every relation (of `type`, when given) whose two ends are both among `assets`, oldest first.',
  })
  @ASSET_ID
  @ApiOkResponse({ type: GraphResponse })
  @ApiErrorResponses(BAD_QUERY, NO_ASSET)
  neighbourhood(@Param('id') id: string, @Query() query: GraphQueryDto): Promise<GraphResponse> {
    return this.graph.neighbourhood(id, query);
  }

  @Get('assets/:id/reachable')
  @ApiOperation({
    summary: 'The assets reachable from an asset on a port',
    description:
      'Every asset reachable in at most `maxDepth` hops walking relations in their directions (`bi` both ways, `mono` from source to target) whose `toPorts` is empty or holds `port` (a listed port, or within a listed range, ends included) and whose `protocol` is empty or equals `protocol` (any protocol when none is asked). Each with the fewest hops that reach it; the asset itself is left out. Riskiest first (assets without a `risk_score` after every scored one), then nearest first, then by id.',
  })
  @ASSET_ID
  @ApiOkResponse({ type: [ReachableAssetResponse] })
  @ApiErrorResponses(BAD_QUERY, NO_ASSET)
  reachable(
    @Param('id') id: string,
    @Query() query: ReachableQueryDto,
  ): Promise<ReachableAssetResponse[]> {
    return this.graph.reachable(id, query);
  }

  @Get('graph/path')
  @ApiOperation({
    summary: 'A shortest path between two assets',
    description:
      'A walk with the fewest hops (at most `maxDepth`) from `from` to `to`, walking relations in their directions (`bi` both ways, `mono` from source to target): `assets` from `from` to `to` and `relations` the step between each two, in walk order. Among walks as short, the one taking the relation with the smallest id at each step. From an asset to itself: that asset and no relation.',
  })
  @ApiOkResponse({ type: GraphResponse })
  @ApiErrorResponses(BAD_QUERY, {
    status: 404,
    description:
      '`from` or `to` is no asset, or no walk of at most `maxDepth` hops leads from one to the other',
  })
  path(@Query() query: PathQueryDto): Promise<GraphResponse> {
    return this.graph.path(query);
  }
}
