import type { ActorColumns } from '../entities/actor-columns.js';
import type { InsertColumn } from '../ingest-sql.js';
import { text } from './column-table.js';

/**
 * The actor's columns (ActorColumns), in their order: embedded without a prefix in the change
 * sets and the ingestion runs, under their `actor` property.
 */
export const ACTOR_COLUMNS = {
  userId: text('actor_user_id'),
  email: text('actor_email'),
  apiKeyId: text('actor_api_key_id'),
  apiKeyPrefix: text('actor_api_key_prefix'),
} as const satisfies { [P in keyof ActorColumns]-?: InsertColumn };
