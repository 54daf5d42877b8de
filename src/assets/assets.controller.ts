import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  HttpStatus,
  Param,
  Post,
  Put,
  Query,
  Req,
  Res,
} from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Roles } from '../common/decorators/roles.decorator.js';
import { ApiExportResponse } from '../common/export/api-export-response.decorator.js';
import { sendExport } from '../common/export/export-reply.js';
import { InvalidInputError } from '../common/errors/invalid-input.error.js';
import {
  ApiAuthenticated,
  ApiErrorResponses,
  ApiJsonBodyErrors,
} from '../common/openapi/api-error-responses.decorator.js';
import { NEXT_LINK_HEADER } from '../common/openapi/headers.js';
import { Role } from '../common/role.js';
import { AssetMergeService } from './asset-merge.service.js';
import { AssetsService } from './assets.service.js';
import type { ChangeOrigin } from '../database/history/change-origin.js';
import { Origin } from '../changes/change-origin.decorator.js';
import { AssetListResponse } from './dto/asset-list-response.dto.js';
import { AssetResponse } from './dto/asset-response.dto.js';
import { CreateAssetDto } from './dto/create-asset.dto.js';
import { ExportAssetsQueryDto } from './dto/export-assets-query.dto.js';
import { ListAssetsQueryDto } from './dto/list-assets-query.dto.js';
import { MergeAssetsDto } from './dto/merge-assets.dto.js';
import { UpdateAssetDto } from './dto/update-asset.dto.js';

const ASSET_ID = ApiParam({
  name: 'id',
  description: 'The asset id: a UUID, or the id given at ingestion',
});
const EDITOR_ONLY = 'The caller is a viewer: writing assets requires the editor role';
const NO_ASSET = { status: 404, description: 'No asset has this id' } as const;

/** The RFC 8288 link to the page after: the request's own query, `after` in place of `offset`. */
function nextLink(url: string, after: string): string {
  const [path, search = ''] = url.split('?', 2);
  const query = new URLSearchParams(search);
  query.delete('offset');
  query.set('after', after);
  return `<${path}?${query.toString()}>; rel="next"`;
}

/** Everyone signed in reads; editors and admins write. */
@ApiTags('assets')
@ApiAuthenticated()
@Controller('assets')
export class AssetsController {
  constructor(
    private readonly assets: AssetsService,
    private readonly merging: AssetMergeService,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'List assets',
    description:
      'One page of the assets matching the filters, and how many match in all. When more follow, the `Link` header holds the next page (`rel="next"`): the same query with the cursor `after` in place of `offset`, which a client walking every asset follows to the end, at the same cost per page however deep.',
  })
  @ApiOkResponse({ type: AssetListResponse, headers: NEXT_LINK_HEADER })
  @ApiErrorResponses({
    status: 400,
    description:
      'A query parameter is unknown or invalid, `after` is not a cursor of this sort, or comes with `offset`',
  })
  async list(
    @Query() query: ListAssetsQueryDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AssetListResponse> {
    const given = request.query as Record<string, unknown>;
    if (query.after !== undefined && given.offset !== undefined)
      throw new InvalidInputError('after cannot be combined with offset');
    const { assets, total, next } = await this.assets.list(query);
    if (next !== undefined) void reply.header('Link', nextLink(request.url, next));
    return { assets, total };
  }

  @Get('export')
  @ApiOperation({
    summary: 'Export assets',
    description:
      "Every asset the list's filters keep, in the list's order (its `sort`), without paging, streamed as an attachment: CSV (the default) or NDJSON. The CSV's header row is the CSV ingestion's columns (`id`, `name`, `ip`, `type`, `vendor`, `model`, `risk_score`, `site`, `os_version`, `addresses`, `macAddresses`, `hostnames`, `tags`), then `services` (`port/protocol/name`, or `port/protocol` for a service without a name), `sources`, `origin`, `firstSeenAt`, `lastSeenAt`, `createdAt` and `updatedAt`, which the CSV ingestion ignores: an export sent back with `matchBy=id` changes nothing. Lists are separated by spaces; a cell that would begin with `=`, `+`, `-`, `@`, a tab or a carriage return is written with a leading `'` (spreadsheet formula injection), which the CSV ingestion takes off. NDJSON: one asset per line, as `GET /api/assets/{id}` shows it. Read a batch at a time: an asset written while the export runs may be missed or, moved by a `sort` on what changed, written twice.",
  })
  @ApiExportResponse('assets')
  @ApiErrorResponses({
    status: 400,
    description: 'A query parameter is unknown (paging included) or invalid',
  })
  async export(@Query() query: ExportAssetsQueryDto, @Res() reply: FastifyReply): Promise<void> {
    await sendExport(reply, 'assets', query.format ?? 'csv', this.assets.export(query));
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get an asset, with its vulnerabilities' })
  @ASSET_ID
  @ApiOkResponse({ type: AssetResponse })
  @ApiErrorResponses(NO_ASSET)
  get(@Param('id') id: string): Promise<AssetResponse> {
    return this.assets.get(id);
  }

  @Roles(Role.Editor)
  @Post()
  @ApiOperation({
    summary: 'Create an asset (editor)',
    description:
      'The id is generated (a UUID) and the asset is `origin: manual` with no `sources` nor sightings; `id`, `source`, `vulnerabilities`, `sources`, `firstSeenAt` and `lastSeenAt` are written by ingestion only, and `origin` never changes.',
  })
  @ApiCreatedResponse({ type: AssetResponse, description: 'The created asset' })
  @ApiJsonBodyErrors()
  @ApiErrorResponses({ status: 403, description: EDITOR_ONLY })
  create(@Origin() origin: ChangeOrigin, @Body() dto: CreateAssetDto): Promise<AssetResponse> {
    return this.assets.create(origin, dto);
  }

  @Roles(Role.Editor)
  @Put(':id')
  @ApiOperation({
    summary: 'Update an asset (editor)',
    description:
      'Any subset of the writable fields; null clears an optional one. `origin`, `sources`, `firstSeenAt` and `lastSeenAt` are not writable (400 as unknown properties).',
  })
  @ASSET_ID
  @ApiOkResponse({ type: AssetResponse, description: 'The updated asset' })
  @ApiJsonBodyErrors()
  @ApiErrorResponses({ status: 403, description: EDITOR_ONLY }, NO_ASSET)
  update(
    @Origin() origin: ChangeOrigin,
    @Param('id') id: string,
    @Body() dto: UpdateAssetDto,
  ): Promise<AssetResponse> {
    return this.assets.update(origin, id, dto);
  }

  @Roles(Role.Editor)
  @Post(':id/merge')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    summary: 'Merge assets into this one (editor)',
    description:
      'The assets of `from` are folded into this asset in one transaction. Its `addresses`, `macAddresses`, `hostnames`, `services` and `sources` gain theirs after its own (a service on a port and protocol it has, and a repeated value, left out); one finding per vulnerability id: its own (status, score, summary) if it has one, else the most recently seen of theirs, with the earliest `firstSeenAt` and the latest `lastSeenAt` of them all, their `sources` after its own and their open periods (those the trend counts) joined with its own, one still open ending at the merge when it is fixed or a false positive; its `firstSeenAt` becomes the earliest and `lastSeenAt` the latest; its other fields are kept. Relations of the merged assets are re-pointed to it (one that would then join it to itself is deleted; of two that become identical in source, target and type, one is kept), and diagrams naming a merged asset in `content.nodes[].assetId` name it instead. The merged assets are deleted: their ids answer 404 from then on, but an ingestion item naming one updates this asset. Recorded in the change history: this asset updated, each merged asset deleted, with the relations and diagrams changed.',
  })
  @ASSET_ID
  @ApiOkResponse({ type: AssetResponse, description: 'The asset, with what it gained' })
  @ApiJsonBodyErrors(
    '`from` is missing, empty, longer than 100, repeats an id, or names this asset itself',
  )
  @ApiErrorResponses(
    { status: 403, description: EDITOR_ONLY },
    { status: 404, description: 'No asset has this id, or one of `from`' },
    {
      status: 409,
      description:
        'The merged asset would hold more than 64 addresses, MAC addresses or host names',
    },
  )
  merge(
    @Origin() origin: ChangeOrigin,
    @Param('id') id: string,
    @Body() dto: MergeAssetsDto,
  ): Promise<AssetResponse> {
    return this.merging.merge(origin, id, dto.from);
  }

  @Roles(Role.Editor)
  @Delete(':id')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({
    summary: 'Delete an asset (editor)',
    description: 'Its vulnerabilities and every relation touching it are deleted with it.',
  })
  @ASSET_ID
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiErrorResponses({ status: 403, description: EDITOR_ONLY }, NO_ASSET)
  remove(@Origin() origin: ChangeOrigin, @Param('id') id: string): Promise<void> {
    return this.assets.remove(origin, id);
  }
}
