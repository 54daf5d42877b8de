import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
} from 'typeorm';
import type { Scope } from '../../common/scope.js';
import { User } from './user.entity.js';

@Entity('api_keys')
export class ApiKey {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Index()
  @Column({ name: 'user_id', type: 'varchar', length: 36 })
  userId: string;

  // Deleting a user revokes its keys in the database itself.
  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  // The public, displayable start of the key; unique so that a presented key is found by it.
  @Column({ type: 'varchar', length: 32, unique: true })
  prefix: string;

  // SHA-256 of the whole key: the secret has 256 random bits, so a slow hash adds nothing.
  @Column({ name: 'key_hash', type: 'varchar', length: 64 })
  keyHash: string;

  @Column({ name: 'expires_at', type: Date, nullable: true })
  expiresAt: Date | null;

  @Column({ name: 'last_used_at', type: Date, nullable: true })
  lastUsedAt: Date | null;

  @CreateDateColumn({ name: 'created_at' })
  createdAt: Date;

  // The client address of that use, written with it.
  @Column({ name: 'last_used_ip', type: 'varchar', length: 64, nullable: true })
  lastUsedIp: string | null;

  // What the key may do, on top of its user's role; read with the key, so that checking them
  // costs no query of its own.
  @Column({ type: 'simple-json' })
  scopes: Scope[];

  // The feeds it may ingest as; null: any.
  @Column({ type: 'simple-json', nullable: true })
  sources: string[] | null;

  // The client address prefixes it may be used from; null: any.
  @Column({ name: 'allowed_cidrs', type: 'simple-json', nullable: true })
  allowedCidrs: string[] | null;
}
