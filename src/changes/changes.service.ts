import { Injectable } from '@nestjs/common';
import type { PageQueryDto } from '../common/dto/page-query.dto.js';
import { NotFoundError } from '../common/errors/not-found.error.js';
import { AssetsRepository } from '../database/repositories/assets.repository.js';
import { ChangesRepository, type ChangePage } from '../database/repositories/changes.repository.js';
import type { ListChangesQueryDto } from './dto/list-changes-query.dto.js';

/** The change history's lists (InventoryWriter writes its records, in the writes' transactions). */
@Injectable()
export class ChangesService {
  constructor(
    private readonly changes: ChangesRepository,
    private readonly assets: AssetsRepository,
  ) {}

  /** One page, newest first, and the filtered total. */
  list(query: ListChangesQueryDto): Promise<ChangePage> {
    const { objectType, objectId, actorId, runId, since, until } = query;
    return this.changes.list(
      {
        objectType,
        objectId,
        actorId,
        runId,
        since: since === undefined ? undefined : new Date(since),
        until: until === undefined ? undefined : new Date(until),
      },
      query,
    );
  }

  /**
   * An asset's changes, also once it is deleted. An id with neither records nor an asset is a
   * 404, so that a mistyped id is not mistaken for an asset nobody changed.
   */
  async forAsset(id: string, paging: PageQueryDto): Promise<ChangePage> {
    const page = await this.changes.ofAsset(id, paging);
    if (page.total === 0 && !(await this.assets.exists(id))) {
      throw new NotFoundError(`asset ${id} not found`);
    }
    return page;
  }
}
