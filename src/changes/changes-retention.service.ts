import {
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { setImmediate as letOtherRequestsRun } from 'node:timers/promises';
import { ChangesRepository } from '../database/repositories/changes.repository.js';

/** Changes are kept this long. */
export const CHANGE_RETENTION_DAYS = 90;
// Each delete is one short statement: on SQLite it holds the one writer's lock only briefly,
// and it waits behind an ingestion (SqliteWriteGate) like any other write.
export const CHANGES_PER_DELETE = 1000;
// Records expire by the day: an hourly pass keeps up, and costs an index probe when idle.
const SWEEP_INTERVAL_MS = 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Removes changes past their retention in the background, in small batches. */
@Injectable()
export class ChangesRetention implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Changes');
  private timer: NodeJS.Timeout | null = null;
  private sweeping: Promise<void> | null = null;
  private stopped = false;

  constructor(private readonly changes: ChangesRepository) {}

  onApplicationBootstrap(): void {
    // The first pass once the service is up, not while it starts.
    this.timer = setInterval(() => this.sweepInBackground(), SWEEP_INTERVAL_MS).unref();
    setImmediate(() => this.sweepInBackground()).unref();
  }

  /** Stops the passes, and lets one under way finish its batch before the database closes. */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.sweeping;
  }

  /**
   * Deletes the changes older than `cutoff`, oldest first, `batch` at a time (ids found by the
   * primary key: record ids carry their time, record-ids.ts), until none is left or the service
   * stops; answers how many. The change sets a batch leaves without records go with it, in its
   * transaction.
   */
  async removeOlderThan(cutoff: Date, batch = CHANGES_PER_DELETE): Promise<number> {
    let removed = 0;
    while (!this.stopped) {
      const expired = await this.changes.expired(cutoff, batch);
      if (expired.length === 0) break;
      removed += await this.changes.remove(expired);
      if (expired.length < batch) break;
      await letOtherRequestsRun();
    }
    return removed;
  }

  private sweepInBackground(): void {
    if (this.sweeping || this.stopped) return;
    const cutoff = new Date(Date.now() - CHANGE_RETENTION_DAYS * DAY_MS);
    this.sweeping = this.removeOlderThan(cutoff)
      .then((removed) => {
        if (removed > 0)
          this.logger.log(`${removed} change(s) past ${CHANGE_RETENTION_DAYS} days removed`);
      })
      .catch((error: unknown) => this.logger.error(`removing old changes failed: ${String(error)}`))
      .finally(() => (this.sweeping = null));
  }
}
