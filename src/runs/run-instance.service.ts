import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { randomInt } from 'node:crypto';
import { Dialect, type InstanceLocks } from '../database/dialect/dialect.js';

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
  private readonly locks: InstanceLocks | null;
  id = randomInt(-(2 ** 31), 2 ** 31);

  constructor(dialect: Dialect) {
    this.locks = dialect.instanceLocks();
  }

  async onModuleInit(): Promise<void> {
    if (!this.locks) return;
    // A lost connection frees the lock: this process's runs may then be taken for dead ones.
    await this.locks.open((error) =>
      this.logger.error(`The connection holding this process's run lock failed: ${error.message}`),
    );
    // An id a live process already holds is drawn again.
    while (!(await this.locks.tryLock(this.id))) this.id = randomInt(-(2 ** 31), 2 ** 31);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.locks?.close();
  }

  /**
   * Whether the process that recorded `instanceId` on its runs still runs. When this process
   * cannot tell (its lock connection failed), it says alive: a live run is never failed.
   */
  async isAlive(instanceId: number): Promise<boolean> {
    if (instanceId === this.id) return true;
    // SQLite: one process per file, so any other instance is gone.
    if (!this.locks) return false;
    if (!this.locks.isOpen) return true;
    try {
      if (!(await this.locks.tryLock(instanceId))) return true;
      await this.locks.unlock(instanceId);
      return false;
    } catch (error) {
      this.logger.error(`Cannot tell whether instance ${instanceId} lives: ${String(error)}`);
      return true;
    }
  }
}
