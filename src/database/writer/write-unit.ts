import type { EntityManager } from 'typeorm';
import type { Dialect } from '../dialect/dialect.js';
import type { UnitSql } from '../ingest-sql.js';
import type { ChangeObjectType } from '../entities/change.entity.js';
import type { ChangeInput } from '../history/change-origin.js';
import type { ChangeRecorder } from '../history/change-recorder.js';
import type { EventType } from '../outbox/event-types.js';
import { subscribedTo, type OutboxEvent, type Subscription } from '../outbox/outbox-event.js';
import { OutboxWrites } from '../repositories/outbox/outbox-writes.js';

/** An asset as its records show it, with what the events' filters read. */
interface ShownAsset {
  site?: string | null;
  sources?: string[];
}

/**
 * One write's transaction, as InventoryWriter hands it to the code that writes: the only way
 * to a manager that writes, and the write's history (its change records, and the copies that
 * creation records need before their objects change).
 */
export class WriteUnit {
  private readonly records: ChangeInput[] = [];
  private statements: UnitSql | null = null;
  /** The events of the assets it creates, those emitted, and those of the assets it deletes. */
  private readonly created: OutboxEvent[] = [];
  private readonly emitted: OutboxEvent[] = [];
  private readonly deleted: OutboxEvent[] = [];
  private enabledWebhooks: Promise<Subscription[]> | null = null;

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

  /**
   * Records changes of this write; they are written with it, before its commit. An asset's
   * creation or deletion is an event too (asset.created, asset.deleted).
   */
  record(...inputs: ChangeInput[]): void {
    this.records.push(...inputs);
    for (const input of inputs) {
      if (input.objectType !== 'asset') continue;
      if (input.action === 'create') this.created.push(assetEvent('asset.created', input.after!));
      if (input.action === 'delete') this.deleted.push(assetEvent('asset.deleted', input.before!));
    }
  }

  /** Whether an enabled webhook subscribes to `type` (read once per unit, in its transaction). */
  async subscribed(type: EventType): Promise<boolean> {
    return subscribedTo(await this.subscriptions(), type);
  }

  /** Events of this write; written with it, before its commit, for the webhooks that take them. */
  emit(...events: OutboxEvent[]): void {
    this.emitted.push(...events);
  }

  /** Writes the unit's events to the outbox, at `now`; answers how many were written. */
  async writeEvents(now: Date): Promise<number> {
    const events = [...this.created, ...this.emitted, ...this.deleted];
    if (events.length === 0) return 0;
    const outbox = new OutboxWrites(this.sql);
    const written = await outbox.write(await this.subscriptions(), events, now);
    await this.settle();
    return written;
  }

  private subscriptions(): Promise<Subscription[]> {
    this.enabledWebhooks ??= new OutboxWrites(this.sql).subscriptions();
    return this.enabledWebhooks;
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

function assetEvent(type: EventType, asset: object): OutboxEvent {
  const { site, sources } = asset as ShownAsset;
  return { type, data: asset, sources: sources ?? [], site: site ?? null, score: null };
}
