import type { ApiKey } from '../entities/api-key.entity.js';
import { json, text, timestamp, type TableColumn } from './column-table.js';

/**
 * The api_keys table: the column of each property of the entity (its user reference aside), in
 * the table's order. The compiler holds it to the entity.
 */
export const API_KEY_COLUMNS = {
  id: text('id'),
  userId: text('user_id'),
  name: text('name'),
  prefix: text('prefix'),
  keyHash: text('key_hash'),
  expiresAt: timestamp('expires_at'),
  lastUsedAt: timestamp('last_used_at'),
  createdAt: timestamp('created_at'),
  lastUsedIp: text('last_used_ip'),
  scopes: json('scopes'),
  sources: json('sources'),
  allowedCidrs: json('allowed_cidrs'),
} as const satisfies { [P in Exclude<keyof ApiKey, 'user'>]-?: TableColumn };
