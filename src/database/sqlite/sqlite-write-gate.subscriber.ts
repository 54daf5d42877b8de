import type BetterSqlite3 from 'better-sqlite3';
import type { BeforeQueryEvent, EntitySubscriberInterface } from 'typeorm';
import type { AsyncLock } from '../async-lock.js';

// Statement texts whose kind is known, at most this many (oldest out first): the service runs
// a few dozen distinct texts, and a read's text is then classified once.
const KINDS_KEPT = 500;
// Never a write: answered without asking SQLite.
const SELECT = /^\s*SELECT\b/i;

/**
 * On SQLite, which has one writer at a time: every statement that writes waits, without
 * blocking the event loop, until `writes` is idle (no ingestion holds the write lock). Without
 * it, a write would block the event loop in better-sqlite3's busy handler for as long as the
 * ingestion lasts, and then fail with "database is locked". TypeORM awaits `beforeQuery`
 * before it runs the statement, on the service's one connection. The statements of a
 * transact(), which holds `writes` itself, pass (`holder`).
 *
 * Whether a statement writes is SQLite's own answer (a prepared statement's `readonly`), not a
 * guess from its first word: the graph's walks begin with `WITH RECURSIVE`, and must not wait
 * for an ingestion.
 */
export class SqliteWriteGate implements EntitySubscriberInterface {
  private readonly readOnly = new Map<string, boolean>();

  constructor(
    private readonly writes: AsyncLock,
    private readonly holder: () => boolean,
    private readonly database: () => BetterSqlite3.Database,
  ) {}

  beforeQuery(event: BeforeQueryEvent): Promise<void> | void {
    if (SELECT.test(event.query) || this.holder() || this.isRead(event.query)) return;
    return this.writes.idle();
  }

  /**
   * A statement that answers rows and writes nothing. BEGIN and the like write nothing either,
   * but open a transaction on the shared connection: they wait as writes do.
   */
  private isRead(sql: string): boolean {
    let readOnly = this.readOnly.get(sql);
    if (readOnly === undefined) {
      try {
        const statement = this.database().prepare(sql);
        readOnly = statement.reader && statement.readonly;
      } catch {
        // Not one statement SQLite can prepare: it fails when run, and waits like a write.
        readOnly = false;
      }
      this.readOnly.set(sql, readOnly);
      if (this.readOnly.size > KINDS_KEPT) this.readOnly.delete(this.readOnly.keys().next().value!);
    }
    return readOnly;
  }
}
