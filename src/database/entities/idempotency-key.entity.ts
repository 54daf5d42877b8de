import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * An Idempotency-Key claimed by a caller: while its run goes on (`status` null), then with the
 * answer kept for replays until `expiresAt`. In the database, so that every replica sees it.
 */
@Entity('idempotency_keys')
export class IdempotencyKey {
  /** `key:<API key id>` or `user:<user id>`: whoever sent it. */
  @PrimaryColumn({ type: 'varchar', length: 48 })
  caller: string;

  @PrimaryColumn({ type: 'varchar', length: 255 })
  key: string;

  /** SHA-256 of the request body's exact bytes, hex. */
  @Column({ name: 'body_hash', type: 'varchar', length: 64 })
  bodyHash: string;

  @Column({ name: 'run_id', type: 'varchar', length: 36 })
  runId: string;

  /** The kept answer's status; null while the run goes on. */
  @Column({ type: 'integer', nullable: true })
  status: number | null;

  /** The kept answer's body, byte for byte as it was sent. */
  @Column({ type: 'text', nullable: true })
  answer: string | null;

  @Column({ name: 'created_at', type: Date })
  createdAt: Date;

  // Expired keys are deleted as runs start.
  @Index()
  @Column({ name: 'expires_at', type: Date, nullable: true })
  expiresAt: Date | null;
}
