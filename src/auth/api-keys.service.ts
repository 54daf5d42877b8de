import { Injectable } from '@nestjs/common';
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { ChangeOrigin } from '../database/history/change-origin.js';
import { ApiKeysRepository } from '../database/repositories/api-keys.repository.js';
import { InventoryWriter } from '../database/writer/inventory-writer.js';
import { API_KEY_PREFIX } from '../common/credentials.js';
import type { ApiKey } from '../database/entities/api-key.entity.js';
import { NotFoundError } from '../common/errors/not-found.error.js';
import { toApiKeyResponse } from './dto/api-key-response.dto.js';
import type { User } from '../database/entities/user.entity.js';

/** `lastUsedAt` is written at most this often per key, to keep reads from turning into writes. */
const LAST_USED_RESOLUTION_MS = 60_000;
const PREFIX_RANDOM_BYTES = 6;
const SECRET_BYTES = 32;
const PREFIX_LENGTH = API_KEY_PREFIX.length + PREFIX_RANDOM_BYTES * 2;

function sha256(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

export interface AuthenticatedKey {
  apiKey: ApiKey;
  user: User;
}

@Injectable()
export class ApiKeysService {
  constructor(
    private readonly apiKeys: ApiKeysRepository,
    private readonly writer: InventoryWriter,
  ) {}

  /** Creates a key for the user; the returned secret is never stored and cannot be shown again. */
  async create(
    origin: ChangeOrigin,
    name: string,
    expiresAt: Date | null,
  ): Promise<{ apiKey: ApiKey; key: string }> {
    const userId = origin.caller.userId;
    // amk_<public id>_<secret>: the public part finds the row, the whole key is checked by hash.
    const prefix = `${API_KEY_PREFIX}${randomBytes(PREFIX_RANDOM_BYTES).toString('hex')}`;
    const key = `${prefix}_${randomBytes(SECRET_BYTES).toString('base64url')}`;
    const apiKey: ApiKey = {
      id: randomUUID(),
      userId,
      name,
      prefix,
      keyHash: sha256(key).toString('hex'),
      expiresAt,
      lastUsedAt: null,
      createdAt: new Date(),
    };
    await this.writer.write(origin, async (unit) => {
      await this.apiKeys.insert(unit.manager, apiKey);
      unit.record({
        action: 'create',
        objectType: 'apiKey',
        objectId: apiKey.id,
        before: null,
        after: toApiKeyResponse(apiKey),
      });
    });
    return { apiKey, key };
  }

  listForUser(userId: string): Promise<ApiKey[]> {
    return this.apiKeys.listForUser(userId);
  }

  /** Deletes one of the user's keys; another user's key is reported as not found. */
  async revoke(origin: ChangeOrigin, id: string): Promise<void> {
    const userId = origin.caller.userId;
    await this.writer.write(origin, async (unit) => {
      const { manager } = unit;
      const before = await this.apiKeys.findOwned(manager, id, userId);
      if (!before) throw new NotFoundError(`API key ${id} not found`);
      await this.apiKeys.delete(manager, id, userId);
      unit.record({
        action: 'delete',
        objectType: 'apiKey',
        objectId: id,
        before: toApiKeyResponse(before),
        after: null,
      });
    });
  }

  /** The key and its owner when the presented key is valid and unexpired, else null. */
  async authenticate(presented: string): Promise<AuthenticatedKey | null> {
    // The public part is hex, so the first '_' after the marker ends it; the secret may hold '_'.
    const prefix = presented.slice(0, PREFIX_LENGTH);
    if (
      presented[PREFIX_LENGTH] !== '_' ||
      !/^[0-9a-f]+$/.test(prefix.slice(API_KEY_PREFIX.length))
    ) {
      return null;
    }
    const apiKey = await this.apiKeys.findByPrefixWithUser(prefix);
    if (!apiKey?.user) return null;
    if (!timingSafeEqual(sha256(presented), Buffer.from(apiKey.keyHash, 'hex'))) return null;
    const now = new Date();
    if (apiKey.expiresAt && apiKey.expiresAt <= now) return null;
    if (
      !apiKey.lastUsedAt ||
      now.getTime() - apiKey.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS
    ) {
      // Conditional, so that concurrent requests with one key write it once per minute at most.
      const threshold = new Date(now.getTime() - LAST_USED_RESOLUTION_MS);
      await this.apiKeys.touch(apiKey.id, now, threshold);
    }
    return { apiKey, user: apiKey.user };
  }
}
