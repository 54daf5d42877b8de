import { Column } from 'typeorm';
import type { Principal } from '../../common/principal.js';

/**
 * Who wrote, as stored beside what they wrote (an ingestion run, a change set): the actor as it
 * was, kept when the user or the key is deleted later. Embedded without a prefix: the columns
 * keep their names.
 */
export class ActorColumns {
  @Column({ name: 'actor_user_id', type: 'varchar', length: 36 })
  userId: string;

  // null for a service account.
  @Column({ name: 'actor_email', type: 'varchar', length: 255, nullable: true })
  email: string | null;

  @Column({ name: 'actor_api_key_id', type: 'varchar', length: 36, nullable: true })
  apiKeyId: string | null;

  @Column({ name: 'actor_api_key_prefix', type: 'varchar', length: 32, nullable: true })
  apiKeyPrefix: string | null;
}

/** The actor columns of `caller`. */
export function actorOf(caller: Principal): ActorColumns {
  const { userId, email, apiKeyId, apiKeyPrefix } = caller;
  return { userId, email, apiKeyId, apiKeyPrefix };
}
