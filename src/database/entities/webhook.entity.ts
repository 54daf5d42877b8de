import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { EventType, WebhookFilter } from '../outbox/event-types.js';

/** A receiver of events: where they are sent, which ones, and the secret that signs them. */
@Entity('webhooks')
export class Webhook {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ type: 'varchar', length: 2048 })
  url: string;

  @Column({ type: 'simple-json' })
  events: EventType[];

  @Column({ type: 'simple-json', nullable: true })
  filter: WebhookFilter | null;

  @Column({ type: 'boolean' })
  enabled: boolean;

  /** `whsec_<base64>`: kept as it is, since every message is signed with it. */
  @Column({ type: 'varchar', length: 64 })
  secret: string;

  /** The first failed attempt of the failures going on now; null after a success. */
  @Column({ name: 'failing_since', type: Date, nullable: true })
  failingSince: Date | null;

  /** Why the service disabled it (failing too long); null when enabled or disabled by hand. */
  @Column({ name: 'disabled_reason', type: 'text', nullable: true })
  disabledReason: string | null;

  /**
   * Until when one process's sender holds its pending deliveries (they are sent by that one
   * alone, in order); another takes them over after, if that one died. Null when none does.
   */
  @Column({ name: 'claimed_until', type: Date, nullable: true })
  claimedUntil: Date | null;

  @Column({ name: 'created_at', type: Date })
  createdAt: Date;

  @Column({ name: 'updated_at', type: Date })
  updatedAt: Date;
}
