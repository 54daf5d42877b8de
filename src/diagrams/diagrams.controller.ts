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
import { CurrentUser } from '../common/decorators/current-user.decorator.js';
import { Roles } from '../common/decorators/roles.decorator.js';
import type { Principal } from '../common/principal.js';
import { Role } from '../common/role.js';
import { DiagramsService } from './diagrams.service.js';
import { CreateDiagramDto } from './dto/create-diagram.dto.js';
import { toDiagramResponse, type DiagramResponse } from './dto/diagram-response.dto.js';
import {
  toDiagramSummaryResponse,
  type DiagramSummaryResponse,
} from './dto/diagram-summary-response.dto.js';
import { ListDiagramsQueryDto } from './dto/list-diagrams-query.dto.js';
import { UpdateDiagramDto } from './dto/update-diagram.dto.js';

/** Who may see and change which diagram is decided by the service, per diagram. */
@Controller('diagrams')
export class DiagramsController {
  constructor(private readonly diagrams: DiagramsService) {}

  @Get()
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
  async get(@CurrentUser() caller: Principal, @Param('id') id: string): Promise<DiagramResponse> {
    return toDiagramResponse(await this.diagrams.getVisible(caller, id));
  }

  @Roles(Role.Editor)
  @Post()
  async create(
    @CurrentUser() caller: Principal,
    @Body() dto: CreateDiagramDto,
  ): Promise<DiagramResponse> {
    return toDiagramResponse(await this.diagrams.create(caller, dto));
  }

  // No @Roles here: a viewer must get a 404, not a 403, for a private diagram it cannot see.
  @Put(':id')
  async update(
    @CurrentUser() caller: Principal,
    @Param('id') id: string,
    @Body() dto: UpdateDiagramDto,
  ): Promise<DiagramResponse> {
    return toDiagramResponse(await this.diagrams.update(caller, id, dto));
  }

  @Delete(':id')
  @HttpCode(HttpStatus.NO_CONTENT)
  remove(@CurrentUser() caller: Principal, @Param('id') id: string): Promise<void> {
    return this.diagrams.remove(caller, id);
  }
}
