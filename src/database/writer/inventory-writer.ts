import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import { AppDataSource } from '../app-data-source.js';
import type { IngestLookups, IngestSql } from '../ingest-sql.js';
import type { ChangeObjectType } from '../entities/change.entity.js';
import { updateChange, type ChangeOrigin } from '../history/change-origin.js';
import { ChangeRecorder } from '../history/change-recorder.js';
import { OutboxSignal } from '../outbox/outbox-signal.js';
import { WriteUnit } from './write-unit.js';

/** An object as the API shows it, as a write reads it before and after. */
type Shown = { id: string } & object;

/**
 * The one writer of the store: every write goes through it, from the API's routes and from
 * ingestion alike. It serializes the writes (SQLite has one writer; on PostgreSQL ingestions
 * take turns across processes), runs each in one transaction with its history (the copies
 * creation records need before their object changes, and the write's change records), and
 * commits all of it or none of it.
 *
 * A route writes through `create`, `update` or `remove`, which read the object as the API
 * shows it around the write and record the difference; or through `write`, given a WriteUnit,
 * for a write of several objects. A write to the inventory anywhere else is refused before it
 * runs (InventoryWriteGuard).
 */
@Injectable()
export class InventoryWriter {
  private readonly recorder: ChangeRecorder;

  constructor(
    @InjectDataSource() private readonly dataSource: AppDataSource,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly signal: OutboxSignal,
  ) {
    this.recorder = new ChangeRecorder(dataSource.dialect, config.changeHistory);
  }

  /**
   * Runs `work` in a transaction of its own, after every write before it; its recorded changes
   * are written before the commit. `origin` null: a write of the service's own, unrecorded.
   */
  async write<T>(origin: ChangeOrigin | null, work: (unit: WriteUnit) => Promise<T>): Promise<T> {
    let events = 0;
    const result = await this.dataSource.asWriter(() =>
      this.dataSource.transact(async (manager) => {
        const unit = new WriteUnit(manager, this.recorder, this.dataSource.dialect);
        const result = await work(unit);
        await unit.settle();
        await this.recorder.record(manager, origin, unit.recorded);
        // The events land with the write, or not at all.
        events = await unit.writeEvents(new Date());
        return result;
      }),
    );
    if (events > 0) this.signal.notify();
    return result;
  }

  /** Creates one object (`insert` writes it and answers it as the API shows it); recorded. */
  create<T extends Shown>(
    origin: ChangeOrigin | null,
    objectType: ChangeObjectType,
    insert: (unit: WriteUnit) => Promise<T>,
  ): Promise<T> {
    return this.write(origin, async (unit) => {
      const after = await insert(unit);
      unit.record({ action: 'create', objectType, objectId: after.id, before: null, after });
      return after;
    });
  }

  /**
   * Changes one object: `read` shows it (null: there is none, and nothing is written), `change`
   * writes the change; the difference between the two reads is recorded. Answers the object
   * after, or null.
   */
  update<T extends Shown>(
    origin: ChangeOrigin | null,
    objectType: ChangeObjectType,
    id: string,
    read: (unit: WriteUnit) => Promise<T | null>,
    change: (unit: WriteUnit, before: T) => Promise<void>,
  ): Promise<T | null> {
    return this.write(origin, async (unit) => {
      const before = await read(unit);
      if (before === null) return null;
      await unit.changing(objectType, [id]);
      await change(unit, before);
      const after = (await read(unit))!;
      unit.record(...updateChange(objectType, id, before, after));
      return after;
    });
  }

  /**
   * Deletes one object: `read` shows it (null: there is none, and nothing is written), `remove`
   * deletes it; its deletion is recorded, after any `cascaded` (what goes with it, read first).
   * Answers the object as it was, or null.
   */
  remove<T extends Shown>(
    origin: ChangeOrigin | null,
    objectType: ChangeObjectType,
    id: string,
    read: (unit: WriteUnit) => Promise<T | null>,
    remove: (unit: WriteUnit, before: T) => Promise<void>,
  ): Promise<T | null> {
    return this.write(origin, async (unit) => {
      const before = await read(unit);
      if (before === null) return null;
      if (objectType === 'asset') await unit.deletingAssets([id]);
      else await unit.changing(objectType, [id]);
      await remove(unit, before);
      unit.record({ action: 'delete', objectType, objectId: id, before, after: null });
      return before;
    });
  }

  /**
   * An ingestion's writes: after every write before it, one ingestion at a time across
   * processes, in the dialect's write transaction (`work` writes its own history through
   * `sql`, with its plan: apply/change-writer.ts).
   */
  async ingest<T>(work: (sql: IngestSql, lookups: IngestLookups) => Promise<T>): Promise<T> {
    const result = await this.dataSource.asWriter(() =>
      this.dataSource.exclusiveWrites.run(() => this.dataSource.dialect.inIngestion(work)),
    );
    // Whatever it wrote to the outbox (its own events and its run's) is committed.
    this.signal.notify();
    return result;
  }
}
