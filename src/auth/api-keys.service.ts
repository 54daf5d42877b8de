import { Injectable } from '@nestjs/common';
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { updateChange, type ChangeOrigin } from '../database/history/change-origin.js';
import { ApiKeysRepository } from '../database/repositories/api-keys.repository.js';
import { InventoryWriter } from '../database/writer/inventory-writer.js';
import { API_KEY_PREFIX } from '../common/credentials.js';
import type { ApiKey } from '../database/entities/api-key.entity.js';
import { ConflictError } from '../common/errors/conflict.error.js';
import { InvalidInputError } from '../common/errors/invalid-input.error.js';
import { NotFoundError } from '../common/errors/not-found.error.js';
import { ROLE_SCOPES } from '../common/scope.js';
import { toApiKeyResponse } from './dto/api-key-response.dto.js';
import type { CreateApiKeyDto } from './dto/create-api-key.dto.js';
import { DEFAULT_GRACE_SECONDS } from './dto/rotate-api-key.dto.js';
import type { User } from '../database/entities/user.entity.js';

/** `lastUsedAt` is written at most this often per key, to keep reads from turning into writes. */
const LAST_USED_RESOLUTION_MS = 60_000;
const PREFIX_RANDOM_BYTES = 6;
const SECRET_BYTES = 32;
const PREFIX_LENGTH = API_KEY_PREFIX.length + PREFIX_RANDOM_BYTES * 2;

function sha256(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** A new key's public prefix and secret: `amk_<public id>_<secret>`. */
function newSecret(): Pick<ApiKey, 'prefix' | 'keyHash'> & { key: string } {
  // The public part finds the row, the whole key is checked by hash.
  const prefix = `${API_KEY_PREFIX}${randomBytes(PREFIX_RANDOM_BYTES).toString('hex')}`;
  const key = `${prefix}_${randomBytes(SECRET_BYTES).toString('base64url')}`;
  return { prefix, key, keyHash: sha256(key).toString('hex') };
}

export interface AuthenticatedKey {
  apiKey: ApiKey;
  user: User;
}

/** A key's user as making and managing its keys needs it: the role bounds its scopes. */
export type KeyOwner = Pick<User, 'id' | 'role'>;

@Injectable()
export class ApiKeysService {
  constructor(
    private readonly apiKeys: ApiKeysRepository,
    private readonly writer: InventoryWriter,
  ) {}

  /**
   * Creates a key for `owner` (the caller, or a user an admin names); the returned secret is
   * never stored and cannot be shown again. Its scopes are those the owner's role allows unless
   * narrowed; a scope beyond the role is refused.
   */
  async create(
    origin: ChangeOrigin,
    owner: KeyOwner,
    dto: CreateApiKeyDto,
  ): Promise<{ apiKey: ApiKey; key: string }> {
    const allowed = ROLE_SCOPES[owner.role];
    const beyond = (dto.scopes ?? []).findIndex((scope) => !allowed.includes(scope));
    if (beyond >= 0) {
      throw new InvalidInputError(
        `scopes[${beyond}] '${dto.scopes![beyond]}' is beyond what the ${owner.role} role allows (${allowed.join(', ')})`,
      );
    }
    const { key, ...secret } = newSecret();
    const apiKey: ApiKey = {
      id: randomUUID(),
      userId: owner.id,
      name: dto.name,
      ...secret,
      expiresAt: dto.expiresAt ? new Date(dto.expiresAt) : null,
      lastUsedAt: null,
      createdAt: new Date(),
      lastUsedIp: null,
      scopes: dto.scopes ?? [...allowed],
      sources: dto.sources ?? null,
      allowedCidrs: dto.allowedCidrs ?? null,
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
  async revoke(origin: ChangeOrigin, userId: string, id: string): Promise<void> {
    await this.writer.write(origin, async (unit) => {
      const { manager } = unit;
      const before = await this.apiKeys.findOwned(manager, id, userId);
      if (!before) throw notFound(id);
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

  /**
   * Replaces one of the user's keys by a new one of the same name, scopes, sources, addresses
   * and expiry; the old one keeps working `graceSeconds` more (never past its own expiry), so
   * that whoever holds it has time to take the new one.
   */
  async rotate(
    origin: ChangeOrigin,
    userId: string,
    id: string,
    graceSeconds = DEFAULT_GRACE_SECONDS,
  ): Promise<{ apiKey: ApiKey; key: string }> {
    return this.writer.write(origin, async (unit) => {
      const { manager } = unit;
      const old = await this.apiKeys.findOwned(manager, id, userId);
      if (!old) throw notFound(id);
      const now = new Date();
      if (old.expiresAt && old.expiresAt <= now) {
        throw new ConflictError(`API key ${id} has expired: create a new one instead`);
      }
      const { key, ...secret } = newSecret();
      const apiKey: ApiKey = {
        ...old,
        id: randomUUID(),
        ...secret,
        lastUsedAt: null,
        lastUsedIp: null,
        createdAt: now,
      };
      const graceEnd = new Date(now.getTime() + graceSeconds * 1000);
      const oldExpiry = old.expiresAt && old.expiresAt < graceEnd ? old.expiresAt : graceEnd;
      await this.apiKeys.insert(manager, apiKey);
      await this.apiKeys.setExpiry(manager, old.id, oldExpiry);
      unit.record(
        {
          action: 'create',
          objectType: 'apiKey',
          objectId: apiKey.id,
          before: null,
          after: toApiKeyResponse(apiKey),
        },
        ...updateChange(
          'apiKey',
          old.id,
          toApiKeyResponse(old),
          toApiKeyResponse({ ...old, expiresAt: oldExpiry }),
        ),
      );
      return { apiKey, key };
    });
  }

  /**
   * The key and its owner when the presented key is valid and unexpired, else null. `address`,
   * the client's, is kept as the key's last use's.
   */
  async authenticate(presented: string, address: string): Promise<AuthenticatedKey | null> {
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
      await this.apiKeys.touch(apiKey.id, now, address, threshold);
    }
    return { apiKey, user: apiKey.user };
  }
}

function notFound(id: string): NotFoundError {
  return new NotFoundError(`API key ${id} not found`);
}
