import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { Repository, type QueryDeepPartialEntity, type SelectQueryBuilder } from 'typeorm';
import type { ChangeOrigin } from '../database/history/change-origin.js';
import { InventoryWriter } from '../database/writer/inventory-writer.js';
import { ForbiddenError } from '../common/errors/forbidden.error.js';
import { NotFoundError } from '../common/errors/not-found.error.js';
import type { Principal } from '../common/principal.js';
import { Role, roleIncludes } from '../common/role.js';
import { Diagram, DiagramVisibility } from '../database/entities/diagram.entity.js';
import type { CreateDiagramDto } from './dto/create-diagram.dto.js';
import { toDiagramResponse, type DiagramResponse } from './dto/diagram-response.dto.js';
import type { ListDiagramsQueryDto } from './dto/list-diagrams-query.dto.js';
import type { UpdateDiagramDto } from './dto/update-diagram.dto.js';

// In SQL rather than in code, so that paging and the total cover only what the caller may see.
const VISIBLE = '(diagram.owner_id = :userId OR diagram.visibility = :public)';
// Repeated in the write itself, so that a change of owner meanwhile cannot slip through.
const OWNED = 'owner_id = :userId';

// Diagram ids are server-made UUIDs: anything else names none, and PostgreSQL would refuse
// some strings (a NUL byte) with an error rather than match nothing.
const DIAGRAM_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

// Everything but `content`, which the list leaves out and which may be a megabyte per row.
const SUMMARY_COLUMNS = [
  'id',
  'name',
  'description',
  'visibility',
  'ownerId',
  'createdAt',
  'updatedAt',
];

function notFound(id: string): NotFoundError {
  return new NotFoundError(`diagram ${id} not found`);
}

@Injectable()
export class DiagramsService {
  constructor(
    @InjectRepository(Diagram) private readonly diagrams: Repository<Diagram>,
    private readonly writer: InventoryWriter,
  ) {}

  /** The caller's own diagrams and the public ones (all of them for an admin), oldest first. */
  async list(
    caller: Principal,
    paging: ListDiagramsQueryDto,
  ): Promise<{ diagrams: Diagram[]; total: number }> {
    const [diagrams, total] = await this.visibleTo(caller)
      .select(SUMMARY_COLUMNS.map((column) => `diagram.${column}`))
      .orderBy('diagram.createdAt', 'ASC')
      .addOrderBy('diagram.id', 'ASC')
      .offset(paging.offset)
      .limit(paging.limit)
      .getManyAndCount();
    return { diagrams, total };
  }

  /** The diagram with its content; 404 as well when it exists but the caller may not see it. */
  async getVisible(caller: Principal, id: string): Promise<Diagram> {
    const diagram = DIAGRAM_ID.test(id)
      ? await this.visibleTo(caller).andWhere('diagram.id = :id', { id }).getOne()
      : null;
    if (!diagram) throw notFound(id);
    return diagram;
  }

  async create(origin: ChangeOrigin, dto: CreateDiagramDto): Promise<Diagram> {
    const now = new Date();
    const diagram = this.diagrams.create({
      id: randomUUID(),
      name: dto.name,
      description: dto.description ?? null,
      visibility: dto.visibility ?? DiagramVisibility.Private,
      ownerId: origin.caller.userId,
      content: JSON.stringify(dto.content ?? {}),
      createdAt: now,
      updatedAt: now,
    });
    await this.writer.create(origin, 'diagram', async ({ manager }) => {
      await manager.getRepository(Diagram).insert(diagram);
      return toDiagramResponse(diagram);
    });
    return diagram;
  }

  async update(origin: ChangeOrigin, id: string, dto: UpdateDiagramDto): Promise<DiagramResponse> {
    const { caller } = origin;
    await this.assertMayChange(caller, id);
    const changes: QueryDeepPartialEntity<Diagram> = { updatedAt: new Date() };
    if (dto.name !== undefined) changes.name = dto.name;
    if (dto.description !== undefined) changes.description = dto.description;
    if (dto.visibility !== undefined) changes.visibility = dto.visibility;
    if (dto.content !== undefined) changes.content = JSON.stringify(dto.content);
    const updated = await this.writer.update(
      origin,
      'diagram',
      id,
      async ({ manager }) => {
        const diagram = await manager.getRepository(Diagram).findOneBy({ id });
        return diagram && toDiagramResponse(diagram);
      },
      async ({ manager }) => {
        const query = manager
          .createQueryBuilder()
          .update(Diagram)
          .set(changes)
          .where('id = :id', { id });
        if (!roleIncludes(caller.role, Role.Admin))
          query.andWhere(OWNED, { userId: caller.userId });
        // Nothing written: the diagram was given away between the check and the write.
        if (!(await query.execute()).affected) throw notFound(id);
      },
    );
    // Deleted between the check and the write.
    if (updated === null) throw notFound(id);
    return updated;
  }

  async remove(origin: ChangeOrigin, id: string): Promise<void> {
    const { caller } = origin;
    await this.assertMayChange(caller, id);
    const removed = await this.writer.remove(
      origin,
      'diagram',
      id,
      async ({ manager }) => {
        const diagram = await manager.getRepository(Diagram).findOneBy({ id });
        return diagram && toDiagramResponse(diagram);
      },
      async ({ manager }) => {
        const query = manager.createQueryBuilder().delete().from(Diagram).where('id = :id', { id });
        if (!roleIncludes(caller.role, Role.Admin))
          query.andWhere(OWNED, { userId: caller.userId });
        if (!(await query.execute()).affected) throw notFound(id);
      },
    );
    if (removed === null) throw notFound(id);
  }

  /**
   * Owners (editors at least) and admins may change a diagram. A caller that may not even see
   * it gets a 404, so that a private diagram's existence is not revealed; otherwise a 403.
   */
  private async assertMayChange(caller: Principal, id: string): Promise<void> {
    const diagram = DIAGRAM_ID.test(id)
      ? await this.visibleTo(caller)
          .select(['diagram.id', 'diagram.ownerId'])
          .andWhere('diagram.id = :id', { id })
          .getOne()
      : null;
    if (!diagram) throw notFound(id);
    if (!roleIncludes(caller.role, Role.Editor)) {
      throw new ForbiddenError('Changing a diagram requires the editor role');
    }
    if (!roleIncludes(caller.role, Role.Admin) && diagram.ownerId !== caller.userId) {
      throw new ForbiddenError('Only the owner of a diagram or an admin may change it');
    }
  }

  private visibleTo(caller: Principal): SelectQueryBuilder<Diagram> {
    const query = this.diagrams.createQueryBuilder('diagram');
    if (roleIncludes(caller.role, Role.Admin)) return query;
    return query.where(VISIBLE, { userId: caller.userId, public: DiagramVisibility.Public });
  }
}
