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
import type { FastifyReply } from 'fastify';
import { CurrentUser } from '../common/decorators/current-user.decorator.js';
import { Roles } from '../common/decorators/roles.decorator.js';
import {
  ApiAuthenticated,
  ApiErrorResponses,
  ApiJsonBodyErrors,
} from '../common/openapi/api-error-responses.decorator.js';
import { TOTAL_COUNT_HEADER } from '../common/openapi/headers.js';
import type { Principal } from '../common/principal.js';
import { Role } from '../common/role.js';
import { DiagramsService } from './diagrams.service.js';
import type { ChangeOrigin } from '../database/history/change-origin.js';
import { Origin } from '../changes/change-origin.decorator.js';
import { CreateDiagramDto } from './dto/create-diagram.dto.js';
import { DiagramResponse, toDiagramResponse } from './dto/diagram-response.dto.js';
import {
  DiagramSummaryResponse,
  toDiagramSummaryResponse,
} from './dto/diagram-summary-response.dto.js';
import { ListDiagramsQueryDto } from './dto/list-diagrams-query.dto.js';
import { UpdateDiagramDto } from './dto/update-diagram.dto.js';

const DIAGRAM_ID = ApiParam({ name: 'id', description: 'The diagram id (a UUID)' });
const NOT_VISIBLE = {
  status: 404,
  description: 'No diagram has this id, or it is private to another user',
} as const;
const NOT_OWNER = {
  status: 403,
  description:
    'The caller sees the diagram but may not change it: a viewer, or an editor who does not own it',
} as const;

/** Who may see and change which diagram is decided by the service, per diagram. */
@ApiTags('diagrams')
@ApiAuthenticated()
@Controller('diagrams')
export class DiagramsController {
  constructor(private readonly diagrams: DiagramsService) {}

  @Get()
  @ApiOperation({
    summary: 'List the diagrams the caller may see, without content',
    description:
      'Own and public diagrams (all of them for an admin), oldest first. Without `limit` every one is returned; the total before paging is in `X-Total-Count`.',
  })
  @ApiOkResponse({ type: [DiagramSummaryResponse], headers: TOTAL_COUNT_HEADER })
  @ApiErrorResponses({ status: 400, description: 'A query parameter is unknown or invalid' })
  async list(
    @CurrentUser() caller: Principal,
    @Query() query: ListDiagramsQueryDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<DiagramSummaryResponse[]> {
    const { diagrams, total } = await this.diagrams.list(caller, query);
    reply.header('X-Total-Count', String(total));
    return diagrams.map(toDiagramSummaryResponse);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get a diagram, with its content' })
  @DIAGRAM_ID
  @ApiOkResponse({ type: DiagramResponse })
  @ApiErrorResponses(NOT_VISIBLE)
  async get(@CurrentUser() caller: Principal, @Param('id') id: string): Promise<DiagramResponse> {
    return toDiagramResponse(await this.diagrams.getVisible(caller, id));
  }

  @Roles(Role.Editor)
  @Post()
  @ApiOperation({
    summary: 'Create a diagram (editor)',
    description: 'The caller becomes its owner.',
  })
  @ApiCreatedResponse({ type: DiagramResponse, description: 'The created diagram, with content' })
  @ApiJsonBodyErrors()
  @ApiErrorResponses({
    status: 403,
    description: 'The caller is a viewer: creating diagrams requires the editor role',
  })
  async create(
    @Origin() origin: ChangeOrigin,
    @Body() dto: CreateDiagramDto,
  ): Promise<DiagramResponse> {
    return toDiagramResponse(await this.diagrams.create(origin, dto));
  }

  // No @Roles here: a viewer must get a 404, not a 403, for a private diagram it cannot see.
  @Put(':id')
  @ApiOperation({
    summary: 'Update a diagram (its owner as an editor, or an admin)',
    description: 'Any subset of the writable fields.',
  })
  @DIAGRAM_ID
  @ApiOkResponse({ type: DiagramResponse, description: 'The updated diagram, with content' })
  @ApiJsonBodyErrors()
  @ApiErrorResponses(NOT_OWNER, NOT_VISIBLE)
  async update(
    @Origin() origin: ChangeOrigin,
    @Param('id') id: string,
    @Body() dto: UpdateDiagramDto,
  ): Promise<DiagramResponse> {
    return this.diagrams.update(origin, id, dto);
  }

  @Delete(':id')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({ summary: 'Delete a diagram (its owner as an editor, or an admin)' })
  @DIAGRAM_ID
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiErrorResponses(NOT_OWNER, NOT_VISIBLE)
  remove(@Origin() origin: ChangeOrigin, @Param('id') id: string): Promise<void> {
    return this.diagrams.remove(origin, id);
  }
}
