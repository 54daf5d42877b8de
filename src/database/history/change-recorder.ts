import type { EntityManager } from 'typeorm';
import type { Dialect } from '../dialect/dialect.js';
import { ChangeSet } from '../entities/change-set.entity.js';
import { Change } from '../entities/change.entity.js';
import { runNamed } from '../sql-reads.js';
import { changeSetOf, type ChangeInput, type ChangeOrigin } from './change-origin.js';
import {
  findingsOfAssets,
  keepCreationsSql,
  relationsOfAssets,
  type CreatedObjectType,
} from './creation-sql.js';
import { RecordIds } from './record-ids.js';

// Rows of one multi-row insert: 8 values each, well within either database's parameter limit.
const CHANGES_PER_INSERT = 500;

/** A change row's values, for a write of `input` at `time` whose origin is `changeSetId`. */
export function changeRow(id: string, changeSetId: number, input: ChangeInput, time: Date): Change {
  return {
    id,
    time,
    action: input.action,
    objectType: input.objectType,
    objectId: input.objectId,
    changeSetId,
    before: input.before === null ? null : JSON.stringify(input.before),
    after: input.after === null ? null : JSON.stringify(input.after),
  };
}

/**
 * The change history's writes, in the transaction of the write they describe (InventoryWriter's
 * unit of work is their only caller): the records, and the copies that creation records kept
 * without one get before their object changes (creation-sql.ts).
 */
export class ChangeRecorder {
  constructor(
    private readonly dialect: Dialect,
    /** Whether writes record their changes (always, but in a bench measuring their cost). */
    readonly enabled: boolean,
  ) {}

  /**
   * Records `inputs` through `manager`, the write's transaction, so that they share its fate.
   * `origin` null: a write of the service's own at start-up, by no request, is not recorded.
   */
  async record(
    manager: EntityManager,
    origin: ChangeOrigin | null,
    inputs: readonly ChangeInput[],
  ): Promise<void> {
    if (!this.enabled || origin === null || inputs.length === 0) return;
    const time = new Date();
    const inserted = await manager.insert(ChangeSet, changeSetOf(origin));
    const changeSetId = Number(inserted.identifiers[0].id);
    const ids = new RecordIds(time);
    const rows = inputs.map((input) => changeRow(ids.next(), changeSetId, input, time));
    for (let start = 0; start < rows.length; start += CHANGES_PER_INSERT) {
      await manager
        .createQueryBuilder()
        .insert()
        .into(Change)
        .values(rows.slice(start, start + CHANGES_PER_INSERT))
        .execute();
    }
  }

  /**
   * Before a write changes or deletes these objects (through `manager`, its transaction): their
   * creation records kept without a copy, by an ingestion, get one (creation-sql.ts).
   */
  async keepCreations(
    manager: EntityManager,
    objectType: CreatedObjectType,
    ids: readonly string[],
  ): Promise<void> {
    if (!this.enabled || ids.length === 0) return;
    await runNamed(manager, keepCreationsSql(this.dialect, objectType, 'IN (:...ids)'), { ids });
  }

  /** keepCreations for the findings of these assets, before they are deleted. */
  async keepFindingCreationsOf(manager: EntityManager, assetIds: readonly string[]): Promise<void> {
    if (!this.enabled || assetIds.length === 0) return;
    await runNamed(
      manager,
      keepCreationsSql(this.dialect, 'finding', findingsOfAssets('IN (:...ids)')),
      { ids: assetIds },
    );
  }

  /** keepCreations for the relations from or to these assets, before they are deleted. */
  async keepRelationCreationsOf(
    manager: EntityManager,
    assetIds: readonly string[],
  ): Promise<void> {
    if (!this.enabled || assetIds.length === 0) return;
    await runNamed(
      manager,
      keepCreationsSql(this.dialect, 'relation', relationsOfAssets('IN (:...ids)')),
      { ids: assetIds },
    );
  }
}
