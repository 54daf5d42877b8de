import type { EntityManager } from 'typeorm';
import type { Dialect } from '../dialect/dialect.js';
import type { UnitSql } from '../ingest-sql.js';
import type { ChangeObjectType } from '../entities/change.entity.js';
import type { ChangeInput } from '../history/change-origin.js';
import type { ChangeRecorder } from '../history/change-recorder.js';

/**
 * One write's transaction, as InventoryWriter hands it to the code that writes: the only way
 * to a manager that writes, and the write's history (its change records, and the copies that
 * creation records need before their objects change).
 */
export class WriteUnit {
  private readonly records: ChangeInput[] = [];
  private statements: UnitSql | null = null;

  constructor(
    /** The transaction's manager: every read and write of the unit goes through it. */
    readonly manager: EntityManager,
    private readonly recorder: ChangeRecorder,
    private readonly dialect: Dialect,
  ) {}

  /**
   * The unit's transaction as an ingestion's writes take it (IngestSql), for the writes a route
   * shares with ingestion (an asset's findings); carried out before the unit's records.
   */
  get sql(): UnitSql {
    this.statements ??= this.dialect.unitSql(this.manager);
    return this.statements;
  }

  /** Once every statement queued through `sql` is carried out. */
  async settle(): Promise<void> {
    await this.statements?.settle();
  }

  /** Whether the write's changes are recorded (reads made only for its records can be skipped). */
  get recording(): boolean {
    return this.recorder.enabled;
  }

  /** Records changes of this write; they are written with it, before its commit. */
  record(...inputs: ChangeInput[]): void {
    this.records.push(...inputs);
  }

  /** The changes recorded so far, in order. */
  get recorded(): readonly ChangeInput[] {
    return this.records;
  }

  /**
   * Before these objects are changed or deleted: their creation records, kept without a copy by
   * an ingestion, get one from the rows as they are.
   */
  async changing(objectType: ChangeObjectType, ids: readonly string[]): Promise<void> {
    if (objectType === 'asset' || objectType === 'relation' || objectType === 'finding') {
      await this.recorder.keepCreations(this.manager, objectType, ids);
    }
  }

  /**
   * Before these assets are deleted: theirs, and those of every relation from or to them and
   * of their findings.
   */
  async deletingAssets(ids: readonly string[]): Promise<void> {
    await this.recorder.keepRelationCreationsOf(this.manager, ids);
    await this.recorder.keepFindingCreationsOf(this.manager, ids);
    await this.recorder.keepCreations(this.manager, 'asset', ids);
  }
}
