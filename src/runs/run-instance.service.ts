import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { randomInt } from 'node:crypto';
import pg from 'pg';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';

// The first half of the two-integer advisory lock keys of instances; the service's other locks
// take one bigint key, a separate key space.
const INSTANCE_LOCK_SPACE = 7_402_152;

/**
 * This process, as its runs record it: a random id and, on PostgreSQL, a session-level advisory
 * lock on that id held for the process's lifetime on a connection of its own (outside the pool,
 * so that closing the pool never waits for it). Another process can then tell a live replica's
 * running run from a dead one's: a dead process's lock is free. On SQLite one process owns the
 * file, so every run but this process's is dead.
 */
@Injectable()
export class RunInstance implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Runs');
  private client: pg.Client | null = null;
  id = randomInt(-(2 ** 31), 2 ** 31);

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  async onModuleInit(): Promise<void> {
    const { database } = this.config;
    if (database.kind !== 'postgres') return;
    const client = new pg.Client({ connectionString: database.url });
    // A lost connection frees the lock: this process's runs may then be taken for dead ones.
    client.on('error', (error) =>
      this.logger.error(`The connection holding this process's run lock failed: ${error.message}`),
    );
    await client.connect();
    this.client = client;
    // An id a live process already holds is drawn again.
    while (!(await this.tryLock(this.id))) this.id = randomInt(-(2 ** 31), 2 ** 31);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.client?.end().catch(() => undefined);
    this.client = null;
  }

  /**
   * Whether the process that recorded `instanceId` on its runs still runs. When this process
   * cannot tell (its lock connection failed), it says alive: a live run is never failed.
   */
  async isAlive(instanceId: number): Promise<boolean> {
    if (instanceId === this.id) return true;
    // SQLite: one process per file, so any other instance is gone.
    if (!this.client) return this.config.database.kind === 'postgres';
    try {
      if (!(await this.tryLock(instanceId))) return true;
      await this.client.query('SELECT pg_advisory_unlock($1, $2)', [
        INSTANCE_LOCK_SPACE,
        instanceId,
      ]);
      return false;
    } catch (error) {
      this.logger.error(`Cannot tell whether instance ${instanceId} lives: ${String(error)}`);
      return true;
    }
  }

  private async tryLock(instanceId: number): Promise<boolean> {
    const result = await this.client!.query<{ taken: boolean }>(
      'SELECT pg_try_advisory_lock($1, $2) AS taken',
      [INSTANCE_LOCK_SPACE, instanceId],
    );
    return result.rows[0].taken;
  }
}
