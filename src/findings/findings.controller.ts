import { Body, Controller, Get, Param, Patch, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Origin } from '../changes/change-origin.decorator.js';
import { Roles } from '../common/decorators/roles.decorator.js';
import { ApiExportResponse } from '../common/export/api-export-response.decorator.js';
import { sendExport } from '../common/export/export-reply.js';
import {
  ApiAuthenticated,
  ApiErrorResponses,
  ApiJsonBodyErrors,
} from '../common/openapi/api-error-responses.decorator.js';
import { TOTAL_COUNT_HEADER } from '../common/openapi/headers.js';
import { Role } from '../common/role.js';
import type { ChangeOrigin } from '../database/history/change-origin.js';
import { AssetFindingsQueryDto } from './dto/asset-findings-query.dto.js';
import { ExportFindingsQueryDto } from './dto/export-findings-query.dto.js';
import { FindingFiltersQueryDto } from './dto/finding-filters-query.dto.js';
import { FindingResponse } from './dto/finding-response.dto.js';
import { FindingSummaryResponse } from './dto/finding-summary-response.dto.js';
import { FindingTrendEntry } from './dto/finding-trend-entry.dto.js';
import { FindingTrendQueryDto } from './dto/finding-trend-query.dto.js';
import { ListFindingsQueryDto } from './dto/list-findings-query.dto.js';
import { TriageFindingDto } from './dto/triage-finding.dto.js';
import { FindingsService, type FindingPage } from './findings.service.js';

const FINDING_ID = ApiParam({ name: 'id', description: 'The finding id (a UUID)' });
const BAD_QUERY = {
  status: 400,
  description:
    'A query parameter is unknown or invalid (a status or severity not among the values)',
} as const;
const NO_FINDING = { status: 404, description: 'No finding has this id' } as const;

/** The page, its total in a header. */
function answer({ findings, total }: FindingPage, reply: FastifyReply): FindingResponse[] {
  void reply.header('X-Total-Count', total);
  return findings;
}

/** Everyone signed in reads findings; editors and admins triage them. */
@ApiTags('findings')
@ApiAuthenticated()
@Controller()
export class FindingsController {
  constructor(private readonly findings: FindingsService) {}

  @Get('findings')
  @ApiOperation({
    summary: 'List findings',
    description:
      'One page of the findings the filters keep, every asset, every status unless filtered; the total before paging is in `X-Total-Count`. Default order: highest score first, then id.',
  })
  @ApiOkResponse({ type: [FindingResponse], headers: TOTAL_COUNT_HEADER })
  @ApiErrorResponses(BAD_QUERY)
  async list(
    @Query() query: ListFindingsQueryDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<FindingResponse[]> {
    return answer(await this.findings.list(query), reply);
  }

  @Get('findings/summary')
  @ApiOperation({
    summary: 'Count findings',
    description:
      'The findings the filters keep, counted: open and overdue ones by severity, accepted, false positive and fixed ones, those first seen and those fixed in the last 30 days.',
  })
  @ApiOkResponse({ type: FindingSummaryResponse })
  @ApiErrorResponses(BAD_QUERY)
  summary(@Query() query: FindingFiltersQueryDto): Promise<FindingSummaryResponse> {
    return this.findings.summary(query);
  }

  @Get('findings/trend')
  @ApiOperation({
    summary: 'Open findings over time',
    description:
      'One entry per UTC day, oldest first, the last one today: the findings the filters keep that were open or accepted at the end of that day (today: now), by their current severity.',
  })
  @ApiOkResponse({ type: [FindingTrendEntry] })
  @ApiErrorResponses(BAD_QUERY)
  trend(@Query() query: FindingTrendQueryDto): Promise<FindingTrendEntry[]> {
    return this.findings.trend(query);
  }

  @Get('findings/export')
  @ApiOperation({
    summary: 'Export findings',
    description:
      "Every finding the list's filters keep, in the list's order (its `sort`), without paging, streamed as an attachment: CSV (the default) or NDJSON. The CSV's header row: `id`, `assetId`, `vulnId`, `score`, `severity`, `status`, `summary`, `publishedDate`, `sources` (separated by spaces), `firstSeenAt`, `lastSeenAt`, `fixedAt`, `reopenedAt`, `reopenCount`, `dueAt`, `overdue`, `reason`, `acceptedUntil`, `triagedBy` (the e-mail of who triaged it); a cell that would begin with `=`, `+`, `-`, `@`, a tab or a carriage return is written with a leading `'` (spreadsheet formula injection). NDJSON: one finding per line, as `GET /api/findings/{id}` shows it. What reads as open and overdue is of the moment the export starts.",
  })
  @ApiExportResponse('findings')
  @ApiErrorResponses(BAD_QUERY)
  async export(@Query() query: ExportFindingsQueryDto, @Res() reply: FastifyReply): Promise<void> {
    await sendExport(reply, 'findings', query.format ?? 'csv', this.findings.export(query));
  }

  @Get('findings/:id')
  @ApiOperation({ summary: 'Get a finding' })
  @FINDING_ID
  @ApiOkResponse({ type: FindingResponse })
  @ApiErrorResponses(NO_FINDING)
  get(@Param('id') id: string): Promise<FindingResponse> {
    return this.findings.get(id);
  }

  @Roles(Role.Editor)
  @Patch('findings/:id')
  @ApiOperation({
    summary: 'Triage a finding (editor)',
    description:
      '`false_positive` with a `reason`: kept through every later scan. `accepted` with a `reason` and an `acceptedUntil` in the future (at most 366 days ahead): the risk is accepted until then, when it reads as open again. `open` alone: undoes a triage (`reason`, `acceptedUntil` and `triagedBy` become null). `triagedBy` becomes the caller. Recorded in the change history (objectType `finding`).',
  })
  @FINDING_ID
  @ApiOkResponse({ type: FindingResponse, description: 'The triaged finding' })
  @ApiJsonBodyErrors(
    'Invalid body: an unknown property, a field a status does not take, a missing reason or acceptedUntil, an acceptedUntil past or more than 366 days ahead',
  )
  @ApiErrorResponses(
    { status: 403, description: 'The caller is a viewer: triage requires the editor role' },
    NO_FINDING,
    { status: 409, description: 'The finding is fixed: a fixed finding cannot be triaged' },
  )
  triage(
    @Origin() origin: ChangeOrigin,
    @Param('id') id: string,
    @Body() dto: TriageFindingDto,
  ): Promise<FindingResponse> {
    return this.findings.triage(origin, id, dto);
  }

  @Get('assets/:id/findings')
  @ApiOperation({
    summary: "List an asset's findings",
    description:
      "The asset's findings, every status unless filtered; the list's query but `assetId`. The total before paging is in `X-Total-Count`.",
  })
  @ApiParam({ name: 'id', description: "The asset's id" })
  @ApiOkResponse({ type: [FindingResponse], headers: TOTAL_COUNT_HEADER })
  @ApiErrorResponses(BAD_QUERY, { status: 404, description: 'No asset has this id' })
  async forAsset(
    @Param('id') id: string,
    @Query() query: AssetFindingsQueryDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<FindingResponse[]> {
    return answer(await this.findings.forAsset(id, query), reply);
  }
}
