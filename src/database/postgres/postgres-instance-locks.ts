import pg from 'pg';
import type { InstanceLocks } from '../dialect/dialect.js';

// The first half of the two-integer advisory lock keys of instances; the service's other locks
// take one bigint key, a separate key space.
const INSTANCE_LOCK_SPACE = 7_402_152;

/**
 * Session-level advisory locks on instance ids, on a connection of their own (outside the pool,
 * so that closing the pool never waits for it): a lock is free once its process is gone.
 */
export class PostgresInstanceLocks implements InstanceLocks {
  private client: pg.Client | null = null;

  constructor(private readonly url: string) {}

  async open(onError: (error: Error) => void): Promise<void> {
    const client = new pg.Client({ connectionString: this.url });
    client.on('error', onError);
    await client.connect();
    this.client = client;
  }

  get isOpen(): boolean {
    return this.client !== null;
  }

  async tryLock(id: number): Promise<boolean> {
    const result = await this.connection().query<{ taken: boolean }>(
      'SELECT pg_try_advisory_lock($1, $2) AS taken',
      [INSTANCE_LOCK_SPACE, id],
    );
    return result.rows[0].taken;
  }

  async unlock(id: number): Promise<void> {
    await this.connection().query('SELECT pg_advisory_unlock($1, $2)', [INSTANCE_LOCK_SPACE, id]);
  }

  async close(): Promise<void> {
    await this.client?.end().catch(() => undefined);
    this.client = null;
  }

  private connection(): pg.Client {
    if (!this.client) throw new Error('the instance locks are not open');
    return this.client;
  }
}
