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
import type { FastifyReply } from 'fastify';
import { Roles } from '../common/decorators/roles.decorator.js';
import { Role } from '../common/role.js';
import { CreateRelationDto } from './dto/create-relation.dto.js';
import { ListRelationsQueryDto } from './dto/list-relations-query.dto.js';
import { toRelationResponse, type RelationResponse } from './dto/relation-response.dto.js';
import { UpdateRelationDto } from './dto/update-relation.dto.js';
import { RelationsService } from './relations.service.js';

/** Every signed-in user reads relations; editors and admins write them. */
@Controller('relations')
export class RelationsController {
  constructor(private readonly relations: RelationsService) {}

  @Get()
  async list(
    @Query() query: ListRelationsQueryDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<RelationResponse[]> {
    const { relations, total } = await this.relations.list(query);
    void reply.header('X-Total-Count', total);
    return relations.map(toRelationResponse);
  }

  @Get(':id')
  async get(@Param('id') id: string): Promise<RelationResponse> {
    return toRelationResponse(await this.relations.getById(id));
  }

  @Post()
  @Roles(Role.Editor)
  async create(@Body() dto: CreateRelationDto): Promise<RelationResponse> {
    return toRelationResponse(await this.relations.create(dto));
  }

  @Put(':id')
  @Roles(Role.Editor)
  async update(@Param('id') id: string, @Body() dto: UpdateRelationDto): Promise<RelationResponse> {
    return toRelationResponse(await this.relations.update(id, dto));
  }

  @Delete(':id')
  @Roles(Role.Editor)
  @HttpCode(HttpStatus.NO_CONTENT)
  remove(@Param('id') id: string): Promise<void> {
    return this.relations.remove(id);
  }
}
