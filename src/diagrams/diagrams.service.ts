import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { ChangeOrigin } from '../database/history/change-origin.js';
import {
  DiagramsRepository,
  type DiagramChanges,
  type DiagramViewer,
} from '../database/repositories/diagrams.repository.js';
import { InventoryWriter } from '../database/writer/inventory-writer.js';
import { ForbiddenError } from '../common/errors/forbidden.error.js';
import { NotFoundError } from '../common/errors/not-found.error.js';
import type { Principal } from '../common/principal.js';
import { actsAsAdmin } from '../common/key-rules.js';
import { Role, roleIncludes } from '../common/role.js';
import { DiagramVisibility, type Diagram } from '../database/entities/diagram.entity.js';
import type { CreateDiagramDto } from './dto/create-diagram.dto.js';
import { toDiagramResponse, type DiagramResponse } from './dto/diagram-response.dto.js';
import type { ListDiagramsQueryDto } from './dto/list-diagrams-query.dto.js';
import type { UpdateDiagramDto } from './dto/update-diagram.dto.js';

// Diagram ids are server-made UUIDs: anything else names none, and PostgreSQL would refuse
// some strings (a NUL byte) with an error rather than match nothing.
const DIAGRAM_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function notFound(id: string): NotFoundError {
  return new NotFoundError(`diagram ${id} not found`);
}

/**
 * Whose diagrams the caller reaches: an admin every one (null), but with a key without the
 * `admin` scope; anyone else their own, and the public ones when reading.
 */
function owner(caller: Principal): DiagramViewer {
  return actsAsAdmin(caller) ? null : caller.userId;
}

@Injectable()
export class DiagramsService {
  constructor(
    private readonly diagrams: DiagramsRepository,
    private readonly writer: InventoryWriter,
  ) {}

  /** The caller's own diagrams and the public ones (all of them for an admin), oldest first. */
  list(
    caller: Principal,
    paging: ListDiagramsQueryDto,
  ): Promise<{ diagrams: Diagram[]; total: number }> {
    return this.diagrams.list(owner(caller), paging);
  }

  /** The diagram with its content; 404 as well when it exists but the caller may not see it. */
  async getVisible(caller: Principal, id: string): Promise<Diagram> {
    const diagram = DIAGRAM_ID.test(id) ? await this.diagrams.findVisible(owner(caller), id) : null;
    if (!diagram) throw notFound(id);
    return diagram;
  }

  async create(origin: ChangeOrigin, dto: CreateDiagramDto): Promise<Diagram> {
    const now = new Date();
    const diagram: Diagram = {
      id: randomUUID(),
      name: dto.name,
      description: dto.description ?? null,
      visibility: dto.visibility ?? DiagramVisibility.Private,
      ownerId: origin.caller.userId,
      content: JSON.stringify(dto.content ?? {}),
      createdAt: now,
      updatedAt: now,
    };
    await this.writer.create(origin, 'diagram', async ({ manager }) => {
      await this.diagrams.insert(manager, diagram);
      return toDiagramResponse(diagram);
    });
    return diagram;
  }

  async update(origin: ChangeOrigin, id: string, dto: UpdateDiagramDto): Promise<DiagramResponse> {
    const { caller } = origin;
    await this.assertMayChange(caller, id);
    const changes: DiagramChanges = { updatedAt: new Date() };
    if (dto.name !== undefined) changes.name = dto.name;
    if (dto.description !== undefined) changes.description = dto.description;
    if (dto.visibility !== undefined) changes.visibility = dto.visibility;
    if (dto.content !== undefined) changes.content = JSON.stringify(dto.content);
    const updated = await this.writer.update(
      origin,
      'diagram',
      id,
      async ({ manager }) => {
        const diagram = await this.diagrams.findById(manager, id);
        return diagram && toDiagramResponse(diagram);
      },
      async ({ manager }) => {
        // Nothing written: the diagram was given away between the check and the write.
        if (!(await this.diagrams.update(manager, id, changes, owner(caller)))) {
          throw notFound(id);
        }
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
        const diagram = await this.diagrams.findById(manager, id);
        return diagram && toDiagramResponse(diagram);
      },
      async ({ manager }) => {
        if (!(await this.diagrams.delete(manager, id, owner(caller)))) throw notFound(id);
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
      ? await this.diagrams.findVisibleOwner(owner(caller), id)
      : null;
    if (!diagram) throw notFound(id);
    if (!roleIncludes(caller.role, Role.Editor)) {
      throw new ForbiddenError('Changing a diagram requires the editor role');
    }
    if (!actsAsAdmin(caller) && diagram.ownerId !== caller.userId) {
      throw new ForbiddenError('Only the owner of a diagram or an admin may change it');
    }
  }
}
