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
import { Roles } from '../common/decorators/roles.decorator.js';
import {
  ApiAuthenticated,
  ApiErrorResponses,
  ApiJsonBodyErrors,
} from '../common/openapi/api-error-responses.decorator.js';
import { TOTAL_COUNT_HEADER } from '../common/openapi/headers.js';
import { Role } from '../common/role.js';
import { CreateRelationDto } from './dto/create-relation.dto.js';
import { ListRelationsQueryDto } from './dto/list-relations-query.dto.js';
import { RelationResponse, toRelationResponse } from './dto/relation-response.dto.js';
import { UpdateRelationDto } from './dto/update-relation.dto.js';
import { RelationsService } from './relations.service.js';
import type { ChangeOrigin } from '../database/history/change-origin.js';
import { Origin } from '../changes/change-origin.decorator.js';

const RELATION_ID = ApiParam({ name: 'id', description: 'The relation id (a UUID)' });
const EDITOR_ONLY = 'The caller is a viewer: writing relations requires the editor role';
const NO_RELATION = { status: 404, description: 'No relation has this id' } as const;

/** Every signed-in user reads relations; editors and admins write them. */
@ApiTags('relations')
@ApiAuthenticated()
@Controller('relations')
export class RelationsController {
  constructor(private readonly relations: RelationsService) {}

  @Get()
  @ApiOperation({
    summary: 'List relations',
    description:
      'Oldest first. Without `limit` every matching relation is returned; the total before paging is in `X-Total-Count`.',
  })
  @ApiOkResponse({ type: [RelationResponse], headers: TOTAL_COUNT_HEADER })
  @ApiErrorResponses({ status: 400, description: 'A query parameter is unknown or invalid' })
  async list(
    @Query() query: ListRelationsQueryDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<RelationResponse[]> {
    const { relations, total } = await this.relations.list(query);
    void reply.header('X-Total-Count', total);
    return relations.map(toRelationResponse);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get a relation' })
  @RELATION_ID
  @ApiOkResponse({ type: RelationResponse })
  @ApiErrorResponses(NO_RELATION)
  async get(@Param('id') id: string): Promise<RelationResponse> {
    return toRelationResponse(await this.relations.getById(id));
  }

  @Post()
  @Roles(Role.Editor)
  @ApiOperation({
    summary: 'Create a relation (editor)',
    description:
      'Both ends must be existing, distinct assets. The same (source, target, type) may be created more than once.',
  })
  @ApiCreatedResponse({ type: RelationResponse, description: 'The created relation' })
  @ApiJsonBodyErrors(
    'Invalid body, unknown properties included; also an end that refers to no asset, or a relation from an asset to itself',
  )
  @ApiErrorResponses({ status: 403, description: EDITOR_ONLY })
  async create(
    @Origin() origin: ChangeOrigin,
    @Body() dto: CreateRelationDto,
  ): Promise<RelationResponse> {
    return toRelationResponse(await this.relations.create(origin, dto));
  }

  @Put(':id')
  @Roles(Role.Editor)
  @ApiOperation({
    summary: 'Update a relation (editor)',
    description: 'Any of `type`, `direction`, `protocol`, `toPorts`; the ends are fixed.',
  })
  @RELATION_ID
  @ApiOkResponse({ type: RelationResponse, description: 'The updated relation' })
  @ApiJsonBodyErrors()
  @ApiErrorResponses({ status: 403, description: EDITOR_ONLY }, NO_RELATION)
  async update(
    @Origin() origin: ChangeOrigin,
    @Param('id') id: string,
    @Body() dto: UpdateRelationDto,
  ): Promise<RelationResponse> {
    return this.relations.update(origin, id, dto);
  }

  @Delete(':id')
  @Roles(Role.Editor)
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({ summary: 'Delete a relation (editor)' })
  @RELATION_ID
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiErrorResponses({ status: 403, description: EDITOR_ONLY }, NO_RELATION)
  remove(@Origin() origin: ChangeOrigin, @Param('id') id: string): Promise<void> {
    return this.relations.remove(origin, id);
  }
}
