import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { EntityManager } from 'typeorm';
import { AppDataSource } from '../app-data-source.js';
import { ApiKey } from '../entities/api-key.entity.js';

/**
 * The api_keys table. Writes take the manager of the writer's unit, but for the time of a key's
 * last use, which is no change of the key.
 */
@Injectable()
export class ApiKeysRepository {
  constructor(@InjectDataSource() private readonly dataSource: AppDataSource) {}

  /** The user's keys, oldest first. */
  listForUser(userId: string): Promise<ApiKey[]> {
    return this.dataSource
      .getRepository(ApiKey)
      .find({ where: { userId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** The key of this id, if it is the user's. */
  findOwned(manager: EntityManager, id: string, userId: string): Promise<ApiKey | null> {
    return manager.getRepository(ApiKey).findOneBy({ id, userId });
  }

  /** The user's keys, by id. */
  findOwnedBy(manager: EntityManager, userId: string): Promise<ApiKey[]> {
    return manager.getRepository(ApiKey).find({ where: { userId }, order: { id: 'ASC' } });
  }

  /** The key of this public prefix, with its user. */
  findByPrefixWithUser(prefix: string): Promise<ApiKey | null> {
    return this.dataSource.getRepository(ApiKey).findOne({
      where: { prefix },
      relations: { user: true },
    });
  }

  async insert(manager: EntityManager, apiKey: ApiKey): Promise<void> {
    await manager.getRepository(ApiKey).insert(apiKey);
  }

  /** Deletes the key of this id if it is the user's. */
  async delete(manager: EntityManager, id: string, userId: string): Promise<void> {
    await manager.getRepository(ApiKey).delete({ id, userId });
  }

  /** Moves the key's expiry (a rotation's grace period). */
  async setExpiry(manager: EntityManager, id: string, expiresAt: Date): Promise<void> {
    await manager.getRepository(ApiKey).update({ id }, { expiresAt });
  }

  /**
   * Sets the key's last use to `now` from `address` unless it was set after `threshold`:
   * conditional, so that concurrent requests with one key write it once at most.
   */
  async touch(id: string, now: Date, address: string, threshold: Date): Promise<void> {
    await this.dataSource
      .getRepository(ApiKey)
      .createQueryBuilder()
      .update(ApiKey)
      .set({ lastUsedAt: now, lastUsedIp: address })
      .where('id = :id', { id })
      .andWhere('(last_used_at IS NULL OR last_used_at <= :threshold)', { threshold })
      .execute();
  }
}
