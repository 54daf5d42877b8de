import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Brackets, type EntityManager, type SelectQueryBuilder } from 'typeorm';
import { AppDataSource } from '../app-data-source.js';
import { Diagram, DiagramVisibility } from '../entities/diagram.entity.js';
import { DIAGRAM_SUMMARY_PROPERTIES } from '../tables/diagrams.table.js';

/**
 * Whose diagrams a read sees: this user's own and the public ones; null, every diagram (an
 * admin's).
 */
export type DiagramViewer = string | null;

/** The properties of a diagram a change may set. */
export type DiagramChanges = Partial<
  Pick<Diagram, 'name' | 'description' | 'visibility' | 'content' | 'updatedAt'>
>;

// In SQL rather than in code, so that paging and the total cover only what the caller may see.
const VISIBLE = '(diagram.owner_id = :userId OR diagram.visibility = :public)';
// Repeated in the write itself, so that a change of owner meanwhile cannot slip through.
const OWNED = 'owner_id = :userId';

// Everything but `content`, which the list leaves out and which may be a megabyte per row.
const SUMMARY = DIAGRAM_SUMMARY_PROPERTIES.map((property) => `diagram.${property}`);

/**
 * The diagrams table. Reads see what their viewer may see; writes take the manager of the
 * writer's unit and, given an owner, change the diagram only if it still has that owner.
 */
@Injectable()
export class DiagramsRepository {
  constructor(@InjectDataSource() private readonly dataSource: AppDataSource) {}

  /** A page of the visible diagrams without their content, oldest first, and their total. */
  async list(
    viewer: DiagramViewer,
    paging: { offset?: number; limit?: number },
  ): Promise<{ diagrams: Diagram[]; total: number }> {
    const [diagrams, total] = await this.visibleTo(viewer)
      .select(SUMMARY)
      .orderBy('diagram.createdAt', 'ASC')
      .addOrderBy('diagram.id', 'ASC')
      .offset(paging.offset)
      .limit(paging.limit)
      .getManyAndCount();
    return { diagrams, total };
  }

  /** The diagram with its content, if the viewer may see it. */
  findVisible(viewer: DiagramViewer, id: string): Promise<Diagram | null> {
    return this.visibleTo(viewer).andWhere('diagram.id = :id', { id }).getOne();
  }

  /** The diagram's id and owner only, if the viewer may see it. */
  findVisibleOwner(
    viewer: DiagramViewer,
    id: string,
  ): Promise<Pick<Diagram, 'id' | 'ownerId'> | null> {
    return this.visibleTo(viewer)
      .select(['diagram.id', 'diagram.ownerId'])
      .andWhere('diagram.id = :id', { id })
      .getOne();
  }

  findById(manager: EntityManager, id: string): Promise<Diagram | null> {
    return manager.getRepository(Diagram).findOneBy({ id });
  }

  /** The diagrams of this owner, by id. */
  findOwnedBy(manager: EntityManager, ownerId: string): Promise<Diagram[]> {
    return manager.getRepository(Diagram).find({ where: { ownerId }, order: { id: 'ASC' } });
  }

  /**
   * The diagrams whose content holds one of these texts (a merge's ids as JSON writes them
   * inside a string), whoever owns them, by id: the candidates whose nodes may name them.
   */
  findContaining(manager: EntityManager, texts: readonly string[]): Promise<Diagram[]> {
    const query = manager.getRepository(Diagram).createQueryBuilder('diagram');
    query.where(
      new Brackets((any) => {
        texts.forEach((text, index) =>
          any.orWhere(`diagram.content LIKE :text${index} ESCAPE '\\'`, {
            [`text${index}`]: `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`,
          }),
        );
      }),
    );
    return query.orderBy('diagram.id', 'ASC').getMany();
  }

  async insert(manager: EntityManager, diagram: Diagram): Promise<void> {
    await manager.getRepository(Diagram).insert(diagram);
  }

  /** Whether it changed the diagram: none of `id`, or not `ownedBy`'s (if given), changes none. */
  async update(
    manager: EntityManager,
    id: string,
    changes: DiagramChanges,
    ownedBy: string | null,
  ): Promise<boolean> {
    const query = manager
      .createQueryBuilder()
      .update(Diagram)
      .set(changes)
      .where('id = :id', { id });
    if (ownedBy !== null) query.andWhere(OWNED, { userId: ownedBy });
    return Boolean((await query.execute()).affected);
  }

  /** Whether it deleted the diagram: none of `id`, or not `ownedBy`'s (if given), deletes none. */
  async delete(manager: EntityManager, id: string, ownedBy: string | null): Promise<boolean> {
    const query = manager.createQueryBuilder().delete().from(Diagram).where('id = :id', { id });
    if (ownedBy !== null) query.andWhere(OWNED, { userId: ownedBy });
    return Boolean((await query.execute()).affected);
  }

  private visibleTo(viewer: DiagramViewer): SelectQueryBuilder<Diagram> {
    const query = this.dataSource.getRepository(Diagram).createQueryBuilder('diagram');
    if (viewer === null) return query;
    return query.where(VISIBLE, { userId: viewer, public: DiagramVisibility.Public });
  }
}
