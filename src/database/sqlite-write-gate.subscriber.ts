import type { BeforeQueryEvent, EntitySubscriberInterface } from 'typeorm';
import type { AsyncLock } from './async-lock.js';

/**
 * On SQLite, which has one writer at a time: every statement but a SELECT waits, without
 * blocking the event loop, until `writes` is idle (no ingestion holds the write lock). Without
 * it, a write would block the event loop in better-sqlite3's busy handler for as long as the
 * ingestion lasts, and then fail with "database is locked". TypeORM awaits `beforeQuery`
 * before it runs the statement, on the service's one connection. The statements of a
 * transact(), which holds `writes` itself, pass (`holder`).
 */
export class SqliteWriteGate implements EntitySubscriberInterface {
  constructor(
    private readonly writes: AsyncLock,
    private readonly holder: () => boolean,
  ) {}

  beforeQuery(event: BeforeQueryEvent): Promise<void> | void {
    if (/^\s*SELECT\b/i.test(event.query) || this.holder()) return;
    return this.writes.idle();
  }
}
