import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One event of the outbox, written in the transaction of the write that caused it, and only
 * when a webhook takes it: its message's body as it is signed and sent, every time.
 */
@Entity('webhook_events')
export class WebhookEvent {
  /** The message's `id` and `webhook-id` (a UUIDv7). */
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ type: 'varchar', length: 32 })
  type: string;

  @Column({ name: 'created_at', type: Date })
  createdAt: Date;

  /** `{"id", "type", "timestamp", "data"}`, as sent. */
  @Column({ type: 'text' })
  body: string;
}
