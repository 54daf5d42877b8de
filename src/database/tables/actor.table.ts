import type { ActorColumns } from '../entities/actor-columns.js';
import type { InsertColumn } from '../ingest-sql.js';

/**
 * The actor's columns (ActorColumns), in their order: embedded without a prefix in the change
 * sets and the ingestion runs, under their `actor` property.
 */
export const ACTOR_COLUMNS = {
  userId: { name: 'actor_user_id', type: 'text' },
  email: { name: 'actor_email', type: 'text' },
  apiKeyId: { name: 'actor_api_key_id', type: 'text' },
  apiKeyPrefix: { name: 'actor_api_key_prefix', type: 'text' },
} as const satisfies { [P in keyof ActorColumns]-?: InsertColumn };
